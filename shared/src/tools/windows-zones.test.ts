// The Windows → IANA table in shared/src/domain is generated from the cldr-core package; this fails
// when the two disagree (a bumped cldr-core not regenerated, or a hand edit).
import { readFileSync } from 'node:fs';
import { describe, it, expect } from 'vitest';
import { WINDOWS_ZONES_FILE, renderWindowsZones, windowsZonesFromCldr } from './windows-zones';
import { WINDOWS_ZONES } from '../domain/windows-zones';

describe('Windows time zones (CLDR windowsZones)', () => {
  it('the generated table is exactly what cldr-core holds: run `npm run zones:windows` after bumping it', () => {
    expect(readFileSync(WINDOWS_ZONES_FILE, 'utf8')).toBe(renderWindowsZones());
    const { zones } = windowsZonesFromCldr();
    expect(Object.entries(WINDOWS_ZONES)).toEqual(zones);
    expect(zones.length).toBeGreaterThan(130);
  });

  it('every IANA zone of the table is one this runtime knows', () => {
    for (const iana of Object.values(WINDOWS_ZONES)) expect(() => new Intl.DateTimeFormat('en-US', { timeZone: iana }), iana).not.toThrow();
  });
});
