/**
 * The redactor: each identifier a person may type into a search box, in the shapes people write
 * it, is replaced by its label; ordinary searches (hours, ages, bus routes, vitamins, places) are
 * kept as typed, so the report stays useful.
 */
import { describe, expect, it } from 'vitest';
import { normaliseSearch } from '../../../src/search-report/search-recorder.ts';
import { redactSearch } from '../../../src/search-report/search-redaction.ts';

// As the recorder calls it: normalised first.
const redact = (text: string) => redactSearch(normaliseSearch(text));

describe('redactSearch', () => {
  it.each([
    ['jane.doe@example.org', '[email]'],
    ['help for J.Doe+benefits@mail.example.co.uk please', 'help for [email] please'],
    ['call 07700 900123', 'call [phone]'],
    ['07700900123', '[phone]'],
    ['+44 7700 900123', '[phone]'],
    ['+447700900123', '[phone]'],
    ['+44 (0)20 7946 0958', '[phone]'],
    ['020 7946 0958', '[phone]'],
    ['(305) 555-1234', '[phone]'],
    ['305-555-1234', '[phone]'],
    ['305.555.1234', '[phone]'],
    ['+1 305 555 1234', '[phone]'],
    ['555-1234', '[phone]'],
  ])('labels the e-mail address or phone number in %j', (typed, kept) => {
    expect(redact(typed)).toBe(kept);
  });

  it.each([
    ['NHS 943 476 5919', 'nhs [number]'],
    ['9434765919', '[number]'],
    ['943-476-5919 referral', '[phone] referral'],
    ['dob 12/03/1985', 'dob [number]'],
    ['ni QQ 12 34 56 C', 'ni qq [number] c'],
    ['case ref 123456', 'case ref [number]'],
    ['ref123456', 'ref[number]'],
    ['zip 33101-1234', 'zip [number]'],
    ['１２３４５６７', '[number]'],
  ])('labels the run of 6 or more digits in %j', (typed, kept) => {
    expect(redact(typed)).toBe(kept);
  });

  it.each([
    ['John Smith 12 Acacia Avenue', 'john smith [address]'],
    ['221B Baker Street', '[address]'],
    ['10 Downing St.', '[address]'],
    ['12-14 High Street food bank', '[address] food bank'],
    ['flat 3, 12 Acacia Avenue, B12 9AA', 'flat 3, [address], [postcode b12]'],
    ['1234 NW 5th Ave Miami', '[address] miami'],
    ['7 old mill lane', '[address]'],
  ])('labels the house number and street in %j', (typed, kept) => {
    expect(redact(typed)).toBe(kept);
  });

  it.each([
    ['food bank B12 9AA', 'food bank [postcode b12]'],
    ['SW1A1AA', '[postcode sw1a]'],
    ['m1 1ae drop in', '[postcode m1] drop in'],
  ])('keeps only the outward district of the full postcode in %j', (typed, kept) => {
    expect(redact(typed)).toBe(kept);
  });

  it.each([
    'food bank 24 hours',
    'over 50s',
    'bus 42',
    'b12 injections',
    'vitamin b12',
    'food bank b12',
    'sw1a',
    'housing m1',
    '24 hour walk in centre',
    '42 park and ride',
    '2 bed place',
    '24/7 helpline',
    'open 9 to 5',
    'covid 19 vaccine',
    'age 16-25',
    'zip 33101',
    'call 111',
    '999',
    'aa meetings',
    'citizens advice high street',
    'nhs number',
  ])('keeps the ordinary search %j as typed', (typed) => {
    expect(redact(typed)).toBe(normaliseSearch(typed));
  });
});
