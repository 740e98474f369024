import type { ZObject } from 'zapier-platform-core';
import { ANY_STATUS, chosenStatus, hasStatus, statusField } from '../../src/fields/status';
import { appTester, caught, errorMessage } from '../support/app';

const field = statusField({
  label: 'Registration Status',
  choices: [
    { value: 'approved', label: 'Approved' },
    { value: 'pending', label: 'Pending approval' },
  ],
  helpText: 'Only registrations with this status.',
});

const read = (status?: unknown) =>
  appTester((z: ZObject) => chosenStatus(z, { inputData: status === undefined ? {} : { status } }, field));

describe('the status filter', () => {
  it('is an optional dropdown whose default is any status', () => {
    expect(field).toMatchObject({ key: 'status', required: false, default: ANY_STATUS });
    expect(field.choices).toEqual([
      { value: 'any', label: 'Any status', sample: 'any' },
      { value: 'approved', label: 'Approved', sample: 'approved' },
      { value: 'pending', label: 'Pending approval', sample: 'pending' },
    ]);
  });

  it('reads any, empty and missing as no filter, and a choice by value or label in any case', async () => {
    await expect(read()).resolves.toBeNull();
    await expect(read('')).resolves.toBeNull();
    await expect(read('any')).resolves.toBeNull();
    await expect(read(' Approved ')).resolves.toBe('approved');
    await expect(read('pending APPROVAL')).resolves.toBe('pending');
    expect(hasStatus('approved')({ status: 'APPROVED' })).toBe(true);
    expect(hasStatus('approved')({ status: 'pending' })).toBe(false);
    expect(hasStatus(null)({ status: 'anything' })).toBe(true);
  });

  it('refuses a status typed by hand that no record could have, listing the valid choices', async () => {
    expect(errorMessage(await caught(() => read('complete')))).toBe(
      '"complete" is not one of the choices of Registration Status, so no record would ever match it. Choose one in the Registration Status dropdown: Any status (any), Approved (approved), Pending approval (pending).',
    );
  });
});
