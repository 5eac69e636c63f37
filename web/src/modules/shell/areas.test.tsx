// @vitest-environment happy-dom
// The home page marks 'Coming soon' only the areas that do not exist yet: the marks are derived
// from the one list of area pages (areas.ts) the router renders, so an area whose real page is
// routed cannot be marked, and a placeholder cannot pass for a working area.
import { describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { NAV_ITEMS } from './navigation';
import { AREA_PAGES, areaLoader, areaPage, isComingSoon } from './areas';
import { createAppRouter } from '../../app/router';

vi.mock('../session/hooks/useSession', () => ({
  useUser: () => ({ id: 'u1', email: 'dana@example.com', firstName: 'Dana', lastName: 'Demo', isAdmin: true }),
}));

const { default: HomePage } = await import('../home/pages/HomePage');

describe('areas and their Coming soon marks', () => {
  it('every navigation item has a page module the router can load', () => {
    for (const item of NAV_ITEMS) {
      expect(AREA_PAGES[item.key], item.key).toBeDefined();
      expect(typeof areaLoader(item.key), item.key).toBe('function');
    }
  });

  it('the router renders each area from that list', () => {
    const routes = createAppRouter().routes;
    const flat = (rs: typeof routes): typeof routes => rs.flatMap((r) => [r, ...flat(r.children ?? [])]);
    for (const item of NAV_ITEMS) {
      const route = flat(routes).find((r) => r.path === item.path.replace(/^\//, ''));
      expect(route, item.path).toBeDefined();
      expect((route!.element as { type: unknown }).type, item.key).toBe(areaPage(item.key));
    }
  });

  it(
    'an area is marked exactly when its page is a placeholder: none left; Lists, Companies, Contacts, Enrichments, ' +
      'Playbook, Profile, Organization work',
    () => {
      for (const item of NAV_ITEMS) expect(isComingSoon(item.key), item.key).toBe(AREA_PAGES[item.key].startsWith('../placeholders/'));
      expect(NAV_ITEMS.filter((i) => isComingSoon(i.key)).map((i) => i.key)).toEqual([]);
    },
  );

  it('the home page shows the badge on those cards and no other', () => {
    const html = renderToStaticMarkup(
      <FluentProvider theme={webLightTheme}>
        <MemoryRouter>
          <HomePage />
        </MemoryRouter>
      </FluentProvider>,
    );
    const cards = [...html.matchAll(/data-testid="home-card-([a-z]+)"[\s\S]*?(?=data-testid="home-card-|$)/g)];
    expect(cards.map((m) => m[1])).toEqual(NAV_ITEMS.map((i) => i.key));
    const marked = cards.filter((m) => m[0].includes('home-coming-soon')).map((m) => m[1]);
    expect(marked).toEqual(NAV_ITEMS.filter((i) => isComingSoon(i.key)).map((i) => i.key));
    expect(marked).not.toContain('companies');
    expect(marked).not.toContain('contacts');
    expect(marked).not.toContain('lists');
  });
});
