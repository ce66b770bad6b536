import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseValues, valuesInField } from '../../../src/import/placeholder-values.js';
import { filledBearer } from '../../../src/import/apply-placeholders.js';
import type { Placeholder } from '../../../src/import/import-schema.js';

const ph = (token: string, field: string, extra: Partial<Placeholder> = {}): Placeholder => ({
  field,
  token,
  label: token.slice(2, -1),
  secret: false,
  ...extra,
});

test('one value fills a token wherever it appears; an empty value falls back to the default', () => {
  const placeholders = [ph('${HOST}', 'url'), ph('${KEY}', 'header:X-Key', { defaultValue: 'dflt' }), ph('${HOST}', 'header:X-Host')];
  const r = chooseValues(placeholders, { '${HOST}': 'a.example', '${KEY}': '' });
  assert.ok(r.ok);
  assert.deepEqual(
    [...r.chosen],
    [
      ['${HOST}', 'a.example'],
      ['${KEY}', 'dflt'],
    ],
  );
  assert.deepEqual([...valuesInField(placeholders, r.chosen, 'header:X-Host')], [['${HOST}', 'a.example']]);
  assert.deepEqual([...valuesInField(placeholders, r.chosen, 'bearerToken')], []);
});

test('missing values are named once each by label and listed by token', () => {
  const r = chooseValues([ph('${A}', 'url'), ph('${B}', 'bearerToken'), ph('${A}', 'header:X')], {});
  assert.equal(r.ok, false);
  assert.ok(!r.ok);
  assert.deepEqual(r.missing, ['${A}', '${B}']);
  assert.equal(r.error.message, 'Fill in: A, B');
});

test('a value with a line break is refused, naming the field; a tab is allowed; inherited keys are not values', () => {
  const r = chooseValues([ph('${A}', 'header:X')], { '${A}': 'x\ny' });
  assert.ok(!r.ok);
  assert.deepEqual(r.missing, []);
  assert.equal(r.error.wording?.code, 'reasonImportValueControl');
  assert.ok(chooseValues([ph('${A}', 'header:X')], { '${A}': 'x\ty' }).ok);
  assert.equal(chooseValues([ph('${toString}', 'url')], {}).ok, false);
});

test('the filled bearer token: from the token field or the header, never both, never empty, within the bound', () => {
  const values = new Map([['${T}', ' tok ']]);
  assert.deepEqual(filledBearer('${T}', values, undefined), { ok: true, token: 'tok' });
  assert.deepEqual(filledBearer(undefined, values, 'hdr'), { ok: true, token: 'hdr' });
  assert.deepEqual(filledBearer(undefined, values, undefined), { ok: true, token: undefined });
  const two = filledBearer('${T}', values, 'hdr');
  assert.ok(!two.ok);
  assert.equal(two.error.wording?.code, 'reasonImportTwoTokens');
  const empty = filledBearer('${T}', new Map([['${T}', '  ']]), undefined);
  assert.ok(!empty.ok);
  assert.equal(empty.error.wording?.code, 'reasonImportEmptyToken');
  const long = filledBearer('x'.repeat(9000), values, undefined);
  assert.ok(!long.ok);
  assert.equal(long.error.wording?.code, 'reasonImportTokenTooLong');
});
