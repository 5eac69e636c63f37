import { describe, expect, it } from 'vitest';
import { NAV_ITEMS, isNavItemActive, pageMeta, visibleNavItems } from './navigation';

describe('left navigation (spec 000 §2 Shell)', () => {
  it('lists the items in the spec order with their paths', () => {
    expect(NAV_ITEMS.map((i) => [i.label, i.path])).toEqual([
      ['Lists', '/list-company'],
      ['Companies', '/companies'],
      ['Contacts', '/contacts'],
      ['Enrichments', '/enrichments'],
      ['Playbook', '/playbooks'],
      ['Profile', '/account/profile'],
      ['Organization', '/organization/settings'],
    ]);
  });

  it('draws separators above Enrichments and Profile only', () => {
    expect(NAV_ITEMS.filter((i) => i.separatorAbove).map((i) => i.label)).toEqual(['Enrichments', 'Profile']);
  });

  it('shows Organization to admins only', () => {
    expect(visibleNavItems(false).map((i) => i.label)).not.toContain('Organization');
    expect(visibleNavItems(true).map((i) => i.label)).toContain('Organization');
  });

  it('marks an item active when the route starts with its path', () => {
    const playbook = NAV_ITEMS.find((i) => i.key === 'playbook')!;
    expect(isNavItemActive(playbook, '/playbooks')).toBe(true);
    expect(isNavItemActive(playbook, '/playbooks/new')).toBe(true);
    expect(isNavItemActive(playbook, '/playbooks/123')).toBe(true);
    expect(isNavItemActive(playbook, '/companies')).toBe(false);
    expect(isNavItemActive(playbook, '/')).toBe(false);
  });
});

describe('page header', () => {
  it('gives the breadcrumb and the back arrow of each route', () => {
    expect(pageMeta('/companies')).toEqual({ crumbs: [{ label: 'Companies' }] });
    expect(pageMeta('/playbooks/new')).toEqual({
      crumbs: [{ label: 'Playbook', to: '/playbooks' }, { label: 'New Play' }],
      back: '/playbooks',
    });
    expect(pageMeta('/playbooks/abc').crumbs.map((c) => c.label)).toEqual(['Playbook', 'Edit Play']);
    expect(pageMeta('/organization/settings').crumbs.map((c) => c.label)).toEqual(['Organization', 'Settings']);
    expect(pageMeta('/nowhere').crumbs.map((c) => c.label)).toEqual(['Page not found']);
  });
});
