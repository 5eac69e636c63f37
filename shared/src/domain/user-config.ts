// The user's config (spec 000 §3 'Local drawer config', version 4): navigation state, drawer
// visibility and the groups shown per entity type in the Details tab.

export const USER_CONFIG_VERSION = 4;

export type DrawerVisibility = 'NoDrawer' | 'Collapsed' | 'Visible';

export interface DetailsGroups {
  contacts?: boolean;
  companies?: boolean;
  companyFields?: boolean;
  contactFields?: boolean;
  unassignedEnrichments?: boolean;
}

export interface UserConfig {
  version: number;
  navigationExpanded: boolean;
  drawer: {
    visibility: DrawerVisibility;
    tab: 'Activities' | 'Details';
    company: { details: { showGroups: DetailsGroups } };
    contact: { details: { showGroups: DetailsGroups } };
    idea: { details: { showGroups: DetailsGroups } };
  };
  /** Widths the user gave the columns of a list's ideas table: list id → column key → px. */
  listColumnWidths?: Record<string, Record<string, number>>;
}

export function defaultUserConfig(): UserConfig {
  return {
    version: USER_CONFIG_VERSION,
    navigationExpanded: true,
    drawer: {
      visibility: 'NoDrawer',
      tab: 'Details',
      company: { details: { showGroups: { contacts: true, unassignedEnrichments: true, companyFields: true } } },
      contact: { details: { showGroups: { companies: true, unassignedEnrichments: true, contactFields: true } } },
      idea: { details: { showGroups: { contacts: true, unassignedEnrichments: true, companyFields: true } } },
    },
  };
}

/** A stored config of an older version is replaced by the defaults (its shape is not trusted). */
export function migrateUserConfig(stored: unknown): UserConfig {
  const base = defaultUserConfig();
  if (!stored || typeof stored !== 'object') return base;
  const s = stored as Partial<UserConfig>;
  if (s.version !== USER_CONFIG_VERSION)
    return { ...base, navigationExpanded: typeof s.navigationExpanded === 'boolean' ? s.navigationExpanded : base.navigationExpanded };
  return {
    ...base,
    ...s,
    drawer: { ...base.drawer, ...(s.drawer ?? {}) },
  } as UserConfig;
}
