// The pages of the navigation's areas, in one list: the router renders them, and the home page
// marks 'Coming soon' exactly the areas whose page is still a placeholder (a module of
// modules/placeholders). Building an area means pointing its entry at the real page, which
// removes its mark with nothing else to remember (areas.test.ts).
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type PageModule = { default: ComponentType };

// Each page its own chunk, loaded on first visit (the keys are these source paths).
const MODULES = import.meta.glob<PageModule>([
  '../placeholders/pages/*Page.tsx',
  '../records/*Page.tsx',
  '../enrichments/pages/*Page.tsx',
  '../profile/pages/*Page.tsx',
  '../organization/pages/*Page.tsx',
  '../plays/pages/*Page.tsx',
  '../lists/pages/*Page.tsx',
]);

/** Navigation key (navigation.ts NAV_ITEMS) → the module of the area's page. */
export const AREA_PAGES: Readonly<Record<string, string>> = {
  lists: '../lists/pages/ListsPage.tsx',
  companies: '../records/CompaniesPage.tsx',
  contacts: '../records/ContactsPage.tsx',
  enrichments: '../enrichments/pages/EnrichmentsPage.tsx',
  playbook: '../plays/pages/PlaybooksPage.tsx',
  profile: '../profile/pages/ProfilePage.tsx',
  organization: '../organization/pages/OrganizationSettingsPage.tsx',
};

const PLACEHOLDERS = '../placeholders/';

/** An area is 'Coming soon' while its page is a placeholder (or it has none). */
export function isComingSoon(key: string): boolean {
  const path = AREA_PAGES[key];
  return !path || path.startsWith(PLACEHOLDERS);
}

/** The loader of an area's page (undefined: no such module). */
export function areaLoader(key: string): (() => Promise<PageModule>) | undefined {
  const path = AREA_PAGES[key];
  return path ? MODULES[path] : undefined;
}

const lazyPages = new Map<string, LazyExoticComponent<ComponentType>>();

/** The area's page as a lazy component (one per area, so the router and tests see the same one). */
export function areaPage(key: string): LazyExoticComponent<ComponentType> {
  let page = lazyPages.get(key);
  if (!page) {
    const load = areaLoader(key);
    if (!load) throw new Error(`No page module for the area '${key}'`);
    page = lazy(load);
    lazyPages.set(key, page);
  }
  return page;
}
