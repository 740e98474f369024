/** Event Changed items: what a change says of the event. */
import { SAMPLE_EVENT, toEventChangeItem } from '../../src/mappers/event';

describe('Event Changed', () => {
  it('a deleted event says deleted in every field that carries a status', () => {
    const item = toEventChangeItem(SAMPLE_EVENT, 'EVENT_DELETED');
    expect(item).toMatchObject({
      change: 'deleted',
      changeKind: 'EVENT_DELETED',
      status: 'deleted',
      isPublished: false,
      url: null,
    });
    expect(JSON.stringify(item)).not.toContain('"published"');
  });

  it('other changes keep the status the service sent', () => {
    const item = toEventChangeItem(SAMPLE_EVENT, 'EVENT_UPDATED');
    expect(item).toMatchObject({ status: 'published', isPublished: true, url: SAMPLE_EVENT.url });
  });
});
