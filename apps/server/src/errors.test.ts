import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { boundedText, describeZodError, zodErrorList, ERROR_MESSAGE_MAX, errorBody } from './errors';

function zodError(schema: z.ZodType, value: unknown): z.ZodError {
  const result = schema.safeParse(value);
  if (result.success) throw new Error('expected a validation error');
  return result.error;
}

describe('error messages stay short whatever caused them', () => {
  it('names the first ten issues of a validation and counts the rest', () => {
    const err = zodError(
      z.array(z.string({ error: 'Text please.' })),
      Array.from({ length: 5_000 }, () => 0),
    );
    const message = describeZodError(err);
    expect(message.match(/Text please\./g)).toHaveLength(10);
    // No keys in the text: the fields are in the body's errors list (zodErrorList).
    expect(message.startsWith('Text please. Text please.')).toBe(true);
    expect(zodErrorList(err).map((error) => error.field)).toEqual([
      '0',
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
    ]);
    expect(message.endsWith(' And 4990 more.')).toBe(true);
  });

  it('keeps the count when the issues shown are long, and shortens deep paths', () => {
    const long = zodError(
      z.array(z.string({ error: 'x'.repeat(400) })),
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
    );
    const message = describeZodError(long);
    expect(message.length).toBeLessThanOrEqual(ERROR_MESSAGE_MAX);
    expect(message.endsWith('… And 2 more.')).toBe(true);

    let deep: z.ZodType = z.string({ error: 'Deep.' });
    for (let level = 0; level < 20; level += 1) deep = z.object({ a: deep });
    let value: unknown = 1;
    for (let level = 0; level < 20; level += 1) value = { a: value };
    expect(describeZodError(zodError(deep, value))).toBe('Deep.');
    expect(zodErrorList(zodError(deep, value))).toEqual([
      { code: 'BAD_REQUEST', message: 'Deep.', field: 'a.a.a.a.a.a.a.a…' },
    ]);
  });

  it('bounds a message, every listed error and its code, and lists at most ten', () => {
    const body = errorBody(
      'UPSTREAM',
      'm'.repeat(100_000),
      Array.from({ length: 1_000 }, (_, index) => ({
        code: index === 0 ? 'c'.repeat(10_000) : index,
        message: 'e'.repeat(50_000),
      })),
    );
    expect(body.message).toHaveLength(ERROR_MESSAGE_MAX);
    expect(body.message.endsWith('…')).toBe(true);
    expect(body.errors).toHaveLength(10);
    expect(body.errors.every((error) => error.message.length === ERROR_MESSAGE_MAX)).toBe(true);
    expect(String(body.errors[0]!.code)).toHaveLength(64);
    expect(body.errors[1]!.code).toBe(1);
    expect(JSON.stringify(body).length).toBeLessThan(12_500);
  });

  it('repeats the bounded message as errors[0] when no list is given', () => {
    const body = errorBody('BAD_REQUEST', 'n'.repeat(5_000));
    expect(body.message).toHaveLength(ERROR_MESSAGE_MAX);
    expect(body.errors).toEqual([{ code: 'BAD_REQUEST', message: body.message }]);
  });

  it('never cuts between the two halves of a surrogate pair', () => {
    const text = `${'a'.repeat(8)}🔥🔥🔥`;
    for (let max = 5; max < text.length; max += 1) {
      const cut = boundedText(text, max);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(Buffer.from(cut, 'utf8').toString('utf8')).toBe(cut);
    }
  });
});
