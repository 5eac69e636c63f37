import { LIST_INTENTIONS, type IdeaStatus } from '../../domain';

export const IDEA_STATUS_LABEL: Record<IdeaStatus, string> = { idea: 'Idea', inDealscout: 'In Dealscout', invalid: 'Invalid' };

const SOURCE_NAMES: Record<string, string> = {
  manual: 'Manual',
  csv: 'CSV upload',
  ocean: 'Ocean.io',
  sourceScrub: 'Source Scrub',
  googleMaps: 'Google Maps',
  agent: 'List Building Agent',
  filter: 'Companies matching filters',
};

/** A source kind as shown ('CSV upload'); unknown kinds show their id. */
export function sourceLabel(type: string): string {
  return SOURCE_NAMES[type] ?? LIST_INTENTIONS.find((i) => i.id === type)?.name ?? type;
}
