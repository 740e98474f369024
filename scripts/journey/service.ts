/** Sections 5 and 6 of the journey: what attendees and the door app do in the service. */
import { functionOf } from '../lib/app';
import { type Item, type Journey, asItems, shortTime } from './context';
import { check } from './runner';

export interface Attendees {
  adaId: string;
  approved: Item | undefined;
  grace: Item | undefined;
}

/** 5. Attendees register and pay in the service's own forms and payment pages. */
export const registerAndPay = async (j: Journey, eventId: string): Promise<Attendees> => {
  const { run, service } = j;
  run.heading('5. Attendees register and pay', 'in the service’s own forms and payment pages');
  const ada = await run.step('Ada registers', async () => {
    const value = await service.call<Item>('POST', '/_sandbox/submissions', {
      eventId,
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      ticketType: 'Standard',
      answers: [
        { key: 'company', label: 'Company', value: 'Analytical Engines' },
        { key: 'diet', label: 'Dietary needs', value: ['vegan'] },
      ],
    });
    return { detail: `${String(value.submissionId)} · ${String(value.status)}`, value };
  });
  const adaId = String(ada?.submissionId ?? '');
  const approved = await run.step('Ada is approved: her QR ticket is issued', async () => {
    const value = await service.call<Item>('POST', `/_sandbox/submissions/${adaId}/approve`);
    check(typeof value.qrCode === 'string', 'no QR code after approval');
    return { detail: `QR ${String(value.qrCode)}`, value };
  });
  await run.step('Ada pays', async () => {
    const order = await service.call<Item>('POST', '/_sandbox/orders', {
      submissionId: adaId,
      outcome: 'paid',
    });
    return { detail: `${String(order.id)} · ${String(order.status)}` };
  });
  const grace = await run.step('Grace registers; her first payment fails', async () => {
    const value = await service.call<Item>('POST', '/_sandbox/submissions', {
      eventId,
      email: 'grace@example.com',
      firstName: 'Grace',
      lastName: 'Hopper',
    });
    await service.call('POST', `/_sandbox/submissions/${String(value.submissionId)}/approve`);
    await service.call('POST', '/_sandbox/orders', { submissionId: value.submissionId, outcome: 'failed' });
    const paid = await service.call<Item>('POST', '/_sandbox/orders', {
      submissionId: value.submissionId,
      outcome: 'paid',
    });
    const refunded = await service.call<Item>('POST', `/_sandbox/orders/${String(paid.id)}/refund`);
    return { detail: `then pays and cancels: ${String(refunded.id)} ${String(refunded.status)}`, value };
  });

  return { adaId, approved, grace };
};

/** 6. Door check-in with Check In Attendee: a scanner's raw string, or a pick from a list. */
export const checkInAtDoor = async (
  j: Journey,
  eventId: string,
  { approved, grace }: Attendees,
): Promise<void> => {
  const { run, call, authData } = j;
  const checkIn = functionOf('creates', 'check_in_attendee');
  run.heading(
    '6. Door check-in with the Check In Attendee action',
    'a scanner’s raw string, or a pick from a list',
  );
  const scanned = `  ${String(approved?.qrCode ?? '')}\r\n`;
  const firstScan = await run.step('Scan Ada’s QR code', async () => {
    const item = (await call(checkIn, {
      authData,
      inputData: { checkInBy: 'code', code: scanned },
    })) as Item;
    check(item.result === 'checked_in', `unexpected result ${String(item.result)}`);
    return {
      detail: `${String(item.result)} at ${shortTime(item.checkInTime)} · ${String(item.fullName ?? '')} · ${String(item.eventTitle ?? '')}`,
      value: item,
    };
  });
  await run.step('Zapier replays the same step', async () => {
    const item = (await call(checkIn, {
      authData,
      inputData: { checkInBy: 'code', code: scanned },
    })) as Item;
    check(item.checkInTime === firstScan?.checkInTime, 'the replay changed the check-in time');
    return {
      detail: `same answer: ${String(item.result)} at ${shortTime(item.checkInTime)} (nobody checked in twice)`,
    };
  });
  await run.step('A volunteer scans her badge again later', async () => {
    const item = (await call(checkIn, {
      authData,
      inputData: { checkInBy: 'code', code: scanned, scanReference: 'desk-2-scan-0042' },
    })) as Item;
    check(item.alreadyCheckedIn === true, 'a second scan was not reported as already checked in');
    return { detail: `alreadyCheckedIn: true · first check-in ${shortTime(item.checkInTime)}` };
  });
  await run.step('Grace is picked from the registration list', async () => {
    const options = asItems(
      await call(functionOf('triggers', 'registration_list'), {
        authData,
        inputData: { eventId },
        meta: { isFillingDynamicDropdown: true },
      }),
    );
    const pick = options.find((option) => option.submissionId === grace?.submissionId);
    check(pick, 'Grace is not in the dropdown of approved registrations');
    const item = (await call(checkIn, {
      authData,
      inputData: { checkInBy: 'registration', eventId, submissionId: pick.submissionId },
    })) as Item;
    check(item.result === 'checked_in', `unexpected result ${String(item.result)}`);
    return { detail: `dropdown "${String(pick.label)}" → ${String(item.result)}` };
  });
};
