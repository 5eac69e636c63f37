// Lists, list sources and ideas (spec 002 §3 'List', 'List source', 'Idea'; §4 'List execution',
// 'Bulk selection'; §7 'Ideas', 'Lists and sources'; §9).

/** Idea status values (spec 002 §3): in{product} is the state of being taken into the product's records. */
export const IDEA_STATUSES = ['idea', 'inDealscout', 'invalid'] as const;
export type IdeaStatus = (typeof IDEA_STATUSES)[number];

export const LIST_STATUSES = ['active', 'completed'] as const;
export type ListStatus = (typeof LIST_STATUSES)[number];

/** A source's own state: a list execution in processing maps to inProgress, completed to completed, error to failed (002 §4). */
export const LIST_SOURCE_STATUSES = ['pending', 'inProgress', 'completed', 'failed'] as const;
export type ListSourceStatus = (typeof LIST_SOURCE_STATUSES)[number];

/** The kinds of source a list can have (GET /list-company/intentions). */
export const LIST_INTENTIONS = [
  { id: 'manual', name: 'Add company manually', description: 'Type a company name and website, with suggestions from your companies.' },
  { id: 'csv', name: 'Upload a CSV or XLSX file', description: 'Map the columns of your file; name and website are required.' },
  { id: 'ocean', name: 'Lookalike companies (Ocean.io)', description: 'Companies similar to a few seed domains.' },
  { id: 'sourceScrub', name: 'Source Scrub', description: 'Companies from Source Scrub searches and sources.' },
  { id: 'googleMaps', name: 'Google Maps', description: 'Businesses from a Google Maps text search.' },
  { id: 'agent', name: 'List Building Agent', description: 'An AI agent proposes companies matching a description, with its sources.' },
  {
    id: 'filter',
    name: 'Companies matching filters',
    description: 'Companies already in your workspace that match the filters of the companies table.',
  },
] as const;
export type ListIntentionId = (typeof LIST_INTENTIONS)[number]['id'];

export const LIST_MESSAGES = {
  listNotFound: 'List not found',
  ideaNotFound: 'Idea not found',
  sourceNotFound: 'List source not found',
  listCreated: 'List created successfully',
  listRenamed: 'List renamed',
  listDeleted: 'List deleted',
  listNameRequired: 'List name is required',
  listNameMax: 'List name must be at most 255 characters long',
  ideaAdded: 'Idea added',
  duplicateIdea: 'Idea with same domain already exists in this list',
  sourceRemoved: 'Source removed',
  listCompleted: 'List completed',
  listAlreadyCompleted: 'List is already completed',
  nothingSelected: 'Please select at least one idea',
} as const;

export const LIST_NAME_MAX = 255;

/** Data-provider sources (002 §8 'Other' previews; the rest is our wording). */
export const LIST_SOURCE_MESSAGES = {
  companiesError: 'Error to get companies',
  sourceScrubCompaniesError: 'Error to get source scrub companies',
  sourceScrubSourcesError: 'Error to get source scrub sources',
  executionStarted: 'List execution started',
  executionRunning: 'This source is already being fetched',
  notProviderSource: 'This source has no provider to fetch from',
  sourceAdded: 'Source added',
  domainsRequired: 'Please enter at least one domain',
  domainsMax: 'Please enter at most 10 domains',
  domainInvalid: (d: string) => `Not a valid domain: ${d}`,
  queryRequired: 'Please enter a search',
  sourcesRequired: 'Please choose at least one Source Scrub source',
  descriptionRequired: 'Please describe the companies to find',
  filterTooMany: (max: number) => `More than ${max.toLocaleString('en-US')} companies match these filters. Please narrow them down.`,
  filterNoMatch: 'No companies match these filters',
} as const;

/** The most companies one 'Companies matching filters' source adds (POST /list-company/filter). */
export const FILTER_SOURCE_MAX = 50_000;

/** The intentions whose ideas a provider fetches in a list execution (POST /list-company/execute). */
export const PROVIDER_INTENTIONS = ['ocean', 'sourceScrub', 'googleMaps', 'agent'] as const;
export type ProviderIntention = (typeof PROVIDER_INTENTIONS)[number];
/** The most companies one provider source fetches. */
export const PROVIDER_SOURCE_MAX = 1000;

/** 'N ideas shortlisted' / 'removed from the shortlist' / 'deleted'. */
export function ideaCountMessage(count: number, verb: 'shortlisted' | 'unshortlisted' | 'deleted'): string {
  const noun = `${count} idea${count === 1 ? '' : 's'}`;
  if (verb === 'unshortlisted') return `${noun} removed from the shortlist`;
  return `${noun} ${verb}`;
}

/** The list source a list execution's status maps to (002 §4 'List execution'); null: only drop the realtime node. */
export function listSourceStatusOf(executionStatus: string): ListSourceStatus | null {
  if (executionStatus === 'processing') return 'inProgress';
  if (executionStatus === 'completed') return 'completed';
  if (executionStatus === 'error') return 'failed';
  return null;
}

/** Data providers of list sources (type 'data'): an API key each (Source Scrub: 'username:password'). */
export const DATA_PROVIDERS = ['ocean', 'sourceScrub', 'googleMaps'] as const;
export type DataProvider = (typeof DATA_PROVIDERS)[number];
export const DATA_PROVIDER_NAMES: Record<DataProvider, string> = {
  ocean: 'Ocean.io',
  sourceScrub: 'Source Scrub',
  googleMaps: 'Google Maps',
};
