import { describe, it, expect } from 'vitest';
import { migrateUserConfig, defaultUserConfig, USER_CONFIG_VERSION } from './user-config';

describe('user config (spec 000 §3 Local drawer config, version 4)', () => {
  it('defaults: version 4, navigation expanded, no drawer, Details tab, every group shown', () => {
    const d = defaultUserConfig();
    expect(USER_CONFIG_VERSION).toBe(4);
    expect(d.version).toBe(4);
    expect(d.navigationExpanded).toBe(true);
    expect(d.drawer.visibility).toBe('NoDrawer');
    expect(d.drawer.tab).toBe('Details');
    expect(d.drawer.company.details.showGroups).toEqual({ contacts: true, unassignedEnrichments: true, companyFields: true });
    expect(d.drawer.contact.details.showGroups).toEqual({ companies: true, unassignedEnrichments: true, contactFields: true });
    expect(d.drawer.idea.details.showGroups).toEqual({ contacts: true, unassignedEnrichments: true, companyFields: true });
  });

  it('returns fresh objects (callers may change them)', () => {
    const a = defaultUserConfig();
    a.drawer.company.details.showGroups.contacts = false;
    expect(defaultUserConfig().drawer.company.details.showGroups.contacts).toBe(true);
  });

  it.each([null, undefined, 'text', 42, true])('replaces a stored %s with the defaults', (stored) => {
    expect(migrateUserConfig(stored)).toEqual(defaultUserConfig());
  });

  it('replaces an older version by the defaults, keeping only navigationExpanded', () => {
    const migrated = migrateUserConfig({ version: 3, navigationExpanded: false, drawer: { visibility: 'Visible', tab: 'Activities' } });
    expect(migrated).toEqual({ ...defaultUserConfig(), navigationExpanded: false });
  });

  it('ignores a non-boolean navigationExpanded of an older version', () => {
    expect(migrateUserConfig({ version: 2, navigationExpanded: 'no' }).navigationExpanded).toBe(true);
    expect(migrateUserConfig({}).version).toBe(4);
  });

  it('keeps a version 4 config and fills in what it lacks', () => {
    const migrated = migrateUserConfig({ version: 4, navigationExpanded: false, drawer: { visibility: 'Collapsed' } });
    expect(migrated.version).toBe(4);
    expect(migrated.navigationExpanded).toBe(false);
    expect(migrated.drawer.visibility).toBe('Collapsed');
    expect(migrated.drawer.tab).toBe('Details');
    expect(migrated.drawer.company).toEqual(defaultUserConfig().drawer.company);
  });
});
