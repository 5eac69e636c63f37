// The idea drawer (spec 000 §2 'Detail drawer', 'Details tab'): the idea's name and website in the
// header; Contact(s), Unassigned Enrichments and 'Company Fields' sections, collapsible, their
// state saved in the user's config (drawer.idea.details.showGroups). No close button under a plugin.
import { useState } from 'react';
import { Badge, Button, Link, Text, makeStyles, tokens } from '@fluentui/react-components';
import { DismissRegular, StarFilled, StarRegular } from '@fluentui/react-icons';
import type { IdeaDto, ListSourceDto } from '../../contracts';
import { formatValue, type ValueSchemaItem } from '../../domain';
import { ResultValue } from '../enrichments/ResultValue';
import { ValueView } from '../values/ValueView';
import { usePluginMode } from '../PluginMode';
import { DrawerSection } from '../drawer/DrawerSection';
import { websiteHref, formatDate } from '../table/format';
import { IDEA_STATUS_LABEL, sourceLabel } from './labels';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    width: '380px',
    maxWidth: '100%',
    borderLeft: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
    overflow: 'auto',
  },
  header: {
    display: 'flex',
    alignItems: 'flex-start',
    gap: tokens.spacingHorizontalS,
    padding: tokens.spacingHorizontalM,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  title: { display: 'flex', flexDirection: 'column', flexGrow: 1, minWidth: 0 },
  name: { fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold, overflow: 'hidden', textOverflow: 'ellipsis' },
  grid: { display: 'grid', gridTemplateColumns: '120px 1fr', rowGap: tokens.spacingVerticalS, columnGap: tokens.spacingHorizontalS },
  label: { color: tokens.colorNeutralForeground3 },
  muted: { color: tokens.colorNeutralForeground3 },
  result: { padding: `${tokens.spacingVerticalXS} 0`, borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke3}` },
});

type Groups = { contacts: boolean; unassignedEnrichments: boolean; companyFields: boolean };

export function IdeaDrawer(props: {
  idea: IdeaDto;
  sources: readonly ListSourceDto[];
  enrichmentNames: ReadonlyMap<string, string>;
  /** The enrichments' response schemas (how their results read). */
  enrichmentSchemas?: ReadonlyMap<string, readonly ValueSchemaItem[]>;
  groups: Groups;
  onGroupsChange: (groups: Groups) => void;
  onShortlist: (idea: IdeaDto, status: boolean) => void;
  onClose: () => void;
}) {
  const styles = useStyles();
  const pluginMode = usePluginMode();
  const { idea, groups } = props;
  const [open, setOpen] = useState<Groups>(groups);
  const toggle = (k: keyof Groups) => {
    const next = { ...open, [k]: !open[k] };
    setOpen(next);
    props.onGroupsChange(next);
  };
  const sourceById = new Map(props.sources.map((s) => [s.id, s]));
  const extra = Object.entries(idea.data ?? {});
  return (
    <aside className={styles.root} aria-label={`Idea ${idea.name}`} data-testid="idea-drawer">
      <div className={styles.header}>
        <div className={styles.title}>
          <Text className={styles.name} data-testid="idea-drawer-name">
            {idea.name}
          </Text>
          <Link href={websiteHref(idea.website)} target="_blank" rel="noreferrer">
            {idea.website}
          </Link>
        </div>
        <Button
          appearance="subtle"
          icon={idea.shortListed ? <StarFilled /> : <StarRegular />}
          aria-pressed={idea.shortListed}
          title={idea.shortListed ? 'Remove from the shortlist' : 'Shortlist'}
          onClick={() => props.onShortlist(idea, !idea.shortListed)}
          data-testid="idea-drawer-shortlist"
        />
        {!pluginMode && (
          <Button
            appearance="subtle"
            icon={<DismissRegular />}
            aria-label="Close"
            onClick={props.onClose}
            data-testid="idea-drawer-close"
          />
        )}
      </div>
      <DrawerSection id="contacts" title="Contact(s)" open={open.contacts} onToggle={() => toggle('contacts')}>
        {idea.company ? (
          <Text>
            Taken in as the company <strong>{idea.company.name}</strong> ({idea.company.domain}); its contacts are on the company.
          </Text>
        ) : (
          <Text className={styles.muted}>No contacts yet. Complete the list to take this idea in as a company.</Text>
        )}
      </DrawerSection>
      <DrawerSection
        id="unassignedEnrichments"
        title="Unassigned Enrichments"
        count={idea.enrichmentResults.length}
        open={open.unassignedEnrichments}
        onToggle={() => toggle('unassignedEnrichments')}
      >
        {idea.enrichmentResults.length === 0 && <Text className={styles.muted}>No enrichment has run on this idea yet.</Text>}
        {idea.enrichmentResults.map((r) => (
          <div key={r.id} className={styles.result} data-testid="idea-drawer-result">
            <Text weight="semibold">{props.enrichmentNames.get(r.enrichmentId) ?? 'Enrichment'}</Text>{' '}
            <Badge appearance="tint" color={r.status === 'error' ? 'danger' : r.status === 'complete' ? 'success' : 'informative'}>
              {r.status}
            </Badge>
            <div>
              {r.status === 'error' ? (
                (r.statusMessage ?? 'Error parsing data')
              ) : r.status === 'complete' ? (
                <ResultValue result={r} schema={props.enrichmentSchemas?.get(r.enrichmentId)} />
              ) : (
                ''
              )}
            </div>
          </div>
        ))}
      </DrawerSection>
      <DrawerSection id="companyFields" title="Company Fields" open={open.companyFields} onToggle={() => toggle('companyFields')}>
        <div className={styles.grid}>
          <Text className={styles.label}>Name</Text>
          <Text>{idea.name}</Text>
          <Text className={styles.label}>Website</Text>
          <Text>{idea.website}</Text>
          <Text className={styles.label}>Domain</Text>
          <Text>{idea.domain}</Text>
          <Text className={styles.label}>Status</Text>
          <Text data-testid="idea-drawer-status">{IDEA_STATUS_LABEL[idea.status]}</Text>
          <Text className={styles.label}>Shortlisted</Text>
          <Text>{idea.shortListed ? 'Yes' : 'No'}</Text>
          <Text className={styles.label}>Sources</Text>
          <Text>{idea.sourceIds.map((id) => sourceLabel(sourceById.get(id)?.type ?? '')).join(', ')}</Text>
          <Text className={styles.label}>Added</Text>
          <Text>{formatDate(idea.createdAt)}</Text>
          {extra.map(([k, v]) => [
            <Text key={`${k}-l`} className={styles.label}>
              {k}
            </Text>,
            <Text key={`${k}-v`}>
              <ValueView value={formatValue(v, { key: k })} />
            </Text>,
          ])}
        </div>
      </DrawerSection>
    </aside>
  );
}
