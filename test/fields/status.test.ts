import { ANY_STATUS, chosenStatus, hasStatus, statusField } from '../../src/fields/status';

describe('the status filter', () => {
  it('is an optional dropdown whose default is any status', () => {
    const field = statusField({
      label: 'Order Status',
      choices: [{ value: 'paid', label: 'Paid' }],
      helpText: 'Only orders with this status.',
    });
    expect(field).toMatchObject({ key: 'status', required: false, default: ANY_STATUS });
    expect(field.choices).toEqual([
      { value: 'any', label: 'Any status', sample: 'any' },
      { value: 'paid', label: 'Paid', sample: 'paid' },
    ]);
  });

  it('reads any, empty and missing as no filter, and compares without case', () => {
    const input = (status?: unknown) => ({ inputData: status === undefined ? {} : { status } });
    expect(chosenStatus(input())).toBeNull();
    expect(chosenStatus(input(''))).toBeNull();
    expect(chosenStatus(input('any'))).toBeNull();
    expect(chosenStatus(input(' Approved '))).toBe('approved');
    expect(hasStatus('approved')({ status: 'APPROVED' })).toBe(true);
    expect(hasStatus('approved')({ status: 'pending' })).toBe(false);
    expect(hasStatus(null)({ status: 'anything' })).toBe(true);
  });
});
