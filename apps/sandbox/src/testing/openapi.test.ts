import { describe, expect, it } from 'vitest';
import { OpenApiValidator } from './openapi';

describe('the OpenAPI validator used by the tests', () => {
  const validator = new OpenApiValidator();

  it('knows the 39 operations and matches literal segments before parameters', () => {
    expect(validator.operationKeys()).toHaveLength(39);
    expect(validator.findOperation('GET', '/accounts/abc/rules/lists/bulk_operations/op')?.template).toBe(
      '/accounts/{account_id}/rules/lists/bulk_operations/{operation_id}',
    );
  });

  it('rejects answers that break the document', () => {
    const zone = { success: true, errors: [], messages: [], result: { id: 'x', name: 'example.com' } };
    expect(validator.validate('GET', '/zones/x', 200, zone).errors.length).toBeGreaterThan(0);
    const badEnvelope = { success: false, errors: [{ code: 1, message: 'm' }], messages: [], result: null };
    expect(validator.validate('GET', '/zones/x', 404, badEnvelope).errors.length).toBeGreaterThan(0);
    expect(validator.validate('GET', '/zones/x', 302, {}).errors).toEqual(['status 302 is not documented']);
  });

  it('reads `enum: [null]` as null, so documented failures validate', () => {
    const failure = {
      success: false,
      errors: [{ code: 10003, message: 'List not found' }],
      messages: [],
      result: null,
    };
    expect(validator.validate('GET', '/accounts/a/rules/lists/b', 404, failure).errors).toEqual([]);
    expect(validator.validate('GET', '/accounts/a/rules/lists/b/items', 400, failure).errors).toEqual([]);
  });
});
