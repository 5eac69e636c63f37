import type { FluentIcon } from '@fluentui/react-icons';
import {
  BookOpenFilled,
  BookOpenRegular,
  BuildingFilled,
  BuildingRegular,
  OrganizationFilled,
  OrganizationRegular,
  PeopleFilled,
  PeopleRegular,
  PersonCircleFilled,
  PersonCircleRegular,
  SparkleFilled,
  SparkleRegular,
  TextBulletListLtrFilled,
  TextBulletListLtrRegular,
} from '@fluentui/react-icons';

export interface NavItemDef {
  key: string;
  label: string;
  path: string;
  icon: FluentIcon;
  activeIcon: FluentIcon;
  adminOnly?: boolean;
  /** A separator is drawn above this item (spec 000 §2 / 001 §2). */
  separatorAbove?: boolean;
}

/** Spec 000 §2 'Shell': the left navigation, in order. */
export const NAV_ITEMS: readonly NavItemDef[] = [
  { key: 'lists', label: 'Lists', path: '/list-company', icon: TextBulletListLtrRegular, activeIcon: TextBulletListLtrFilled },
  { key: 'companies', label: 'Companies', path: '/companies', icon: BuildingRegular, activeIcon: BuildingFilled },
  { key: 'contacts', label: 'Contacts', path: '/contacts', icon: PeopleRegular, activeIcon: PeopleFilled },
  { key: 'enrichments', label: 'Enrichments', path: '/enrichments', icon: SparkleRegular, activeIcon: SparkleFilled, separatorAbove: true },
  { key: 'playbook', label: 'Playbook', path: '/playbooks', icon: BookOpenRegular, activeIcon: BookOpenFilled },
  {
    key: 'profile',
    label: 'Profile',
    path: '/account/profile',
    icon: PersonCircleRegular,
    activeIcon: PersonCircleFilled,
    separatorAbove: true,
  },
  {
    key: 'organization',
    label: 'Organization',
    path: '/organization/settings',
    icon: OrganizationRegular,
    activeIcon: OrganizationFilled,
    adminOnly: true,
  },
];

/** An item is active when the current route starts with its path. */
export function isNavItemActive(item: Pick<NavItemDef, 'path'>, pathname: string): boolean {
  return pathname.startsWith(item.path);
}

export function visibleNavItems(isAdmin: boolean): NavItemDef[] {
  return NAV_ITEMS.filter((i) => !i.adminOnly || isAdmin);
}

export interface Crumb {
  label: string;
  to?: string;
}

export interface PageMeta {
  crumbs: Crumb[];
  /** Where the back arrow goes, when the page has one. */
  back?: string;
}

const PAGES: { pattern: RegExp; meta: PageMeta }[] = [
  { pattern: /^\/$/, meta: { crumbs: [{ label: 'Home' }] } },
  { pattern: /^\/list-company\/?$/, meta: { crumbs: [{ label: 'Lists' }] } },
  {
    pattern: /^\/list-company\/[^/]+\/?$/,
    meta: { crumbs: [{ label: 'Lists', to: '/list-company' }, { label: 'List' }], back: '/list-company' },
  },
  { pattern: /^\/companies\/?$/, meta: { crumbs: [{ label: 'Companies' }] } },
  { pattern: /^\/contacts\/?$/, meta: { crumbs: [{ label: 'Contacts' }] } },
  { pattern: /^\/enrichments\/?$/, meta: { crumbs: [{ label: 'Enrichments' }] } },
  { pattern: /^\/playbooks\/?$/, meta: { crumbs: [{ label: 'Playbook' }] } },
  {
    pattern: /^\/playbooks\/new\/?$/,
    meta: { crumbs: [{ label: 'Playbook', to: '/playbooks' }, { label: 'New Play' }], back: '/playbooks' },
  },
  {
    pattern: /^\/playbooks\/[^/]+\/?$/,
    meta: { crumbs: [{ label: 'Playbook', to: '/playbooks' }, { label: 'Edit Play' }], back: '/playbooks' },
  },
  { pattern: /^\/account\/profile\/?$/, meta: { crumbs: [{ label: 'Profile' }] } },
  { pattern: /^\/organization\/settings\/?$/, meta: { crumbs: [{ label: 'Organization' }, { label: 'Settings' }] } },
];

/**
 * The pages that show records, where the detail drawer (and its collapsed bar) belongs. Elsewhere
 * it is not rendered; its state stays in the DrawerProvider and comes back on return.
 */
const RECORD_PAGES = /^\/(companies|contacts)\/?$/;

export function showsRecordDrawer(pathname: string): boolean {
  return RECORD_PAGES.test(pathname);
}

/** Where a record of this type is listed (a record created elsewhere opens there). */
export function recordPagePath(entityType: 'company' | 'contact'): string {
  return entityType === 'company' ? '/companies' : '/contacts';
}

export function pageMeta(pathname: string): PageMeta {
  return PAGES.find((p) => p.pattern.test(pathname))?.meta ?? { crumbs: [{ label: 'Page not found' }], back: '/' };
}
