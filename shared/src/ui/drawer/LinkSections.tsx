// The Contacts section of a company drawer and the Companies section of a contact drawer (spec 000
// §2 'Details tab'): key contact first then by label, the key marker clickable on a non-key contact,
// the primary company marked (clickable to make another primary), 'Add' and 'Link' with a
// search-as-you-type picker where linked records are disabled. Clicking a record opens it nested.
import { useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Spinner, Tooltip, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { AddRegular, LinkRegular, StarFilled, StarRegular } from '@fluentui/react-icons';
import type { CompanyDetails, ContactDetails } from '../../contracts';
import { ENTITY_MESSAGES } from '../../domain';
import { useApi } from '../ApiContext';
import { useDrawer } from '../DrawerContext';
import { useNotify } from '../toast';
import { serverMessage } from '../server-message';
import { RecordPicker } from '../dialogs/RecordPicker';
import { CompanyDialog } from '../dialogs/CompanyDialog';
import { ContactDialog } from '../dialogs/ContactDialog';
import { invalidateRecords } from '../dialogs/invalidate';
import { DrawerSection, SectionNote } from './DrawerSection';
import { contactDisplayName, sortCompanyLinks, sortContactLinks } from './drawer-rules';

const useStyles = makeStyles({
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column' },
  row: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    minHeight: '40px',
    borderRadius: tokens.borderRadiusMedium,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  marker: { minWidth: '28px', flexShrink: 0 },
  markerOn: { color: tokens.colorPaletteMarigoldForeground1 },
  open: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'flex-start',
    flexGrow: 1,
    minWidth: 0,
    padding: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalXS}`,
    border: 'none',
    background: 'none',
    textAlign: 'left',
    cursor: 'pointer',
    fontFamily: 'inherit',
    color: tokens.colorNeutralForeground1,
    borderRadius: tokens.borderRadiusMedium,
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}` },
  },
  name: {
    fontWeight: tokens.fontWeightSemibold,
    fontSize: tokens.fontSizeBase300,
    maxWidth: '100%',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  sub: {
    fontSize: tokens.fontSizeBase200,
    color: tokens.colorNeutralForeground3,
    maxWidth: '100%',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  badges: { display: 'flex', gap: '4px', flexShrink: 0, paddingRight: tokens.spacingHorizontalXS },
  picker: { paddingBottom: tokens.spacingVerticalS },
});

function SectionActions({
  addLabel,
  linkLabel,
  linking,
  onAdd,
  onLink,
  prefix,
}: {
  addLabel: string;
  linkLabel: string;
  linking: boolean;
  onAdd: () => void;
  onLink: () => void;
  prefix: string;
}) {
  return (
    <>
      <Tooltip content={addLabel} relationship="label">
        <Button appearance="subtle" size="small" icon={<AddRegular />} onClick={onAdd} data-testid={`drawer-add-${prefix}`} />
      </Tooltip>
      <Tooltip content={linkLabel} relationship="label">
        <Button
          appearance={linking ? 'secondary' : 'subtle'}
          size="small"
          icon={<LinkRegular />}
          aria-pressed={linking}
          onClick={onLink}
          data-testid={`drawer-link-${prefix}`}
        />
      </Tooltip>
    </>
  );
}

export function ContactsSection({
  company,
  open,
  onToggle,
  defaultOwnerId,
}: {
  company: CompanyDetails;
  open: boolean;
  onToggle: () => void;
  defaultOwnerId?: string | null;
}) {
  const styles = useStyles();
  const api = useApi();
  const drawer = useDrawer();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [linking, setLinking] = useState(false);
  const [adding, setAdding] = useState(false);
  const [busyId, setBusyId] = useState<string | null>(null);
  const links = useMemo(() => sortContactLinks(company.entityMapping), [company.entityMapping]);
  const linkedIds = useMemo(() => new Set(company.entityMapping.map((m) => m.contactId)), [company.entityMapping]);

  const refresh = (contactId: string) => invalidateRecords(queryClient, { companyIds: [company.id], contactIds: [contactId] });

  const makeKey = async (contactId: string) => {
    setBusyId(contactId);
    try {
      await api.companies.setKey(company.id, contactId);
      notify.success(ENTITY_MESSAGES.keySet);
      await refresh(contactId);
    } catch (e) {
      notify.error(serverMessage(e) ?? 'Could not change the key contact');
    } finally {
      setBusyId(null);
    }
  };

  const link = async (contactId: string) => {
    setLinking(false);
    setBusyId(contactId);
    try {
      await api.companies.link({ companyId: company.id, contactId });
      notify.success(ENTITY_MESSAGES.linked);
      await refresh(contactId);
    } catch (e) {
      notify.error(serverMessage(e) ?? 'Could not link the contact');
    } finally {
      setBusyId(null);
    }
  };

  return (
    <>
      <DrawerSection
        id="contacts"
        title="Contacts"
        count={links.length}
        open={open}
        onToggle={onToggle}
        actions={
          <SectionActions
            addLabel="Add a contact"
            linkLabel="Link a contact"
            linking={linking}
            prefix="contact"
            onAdd={() => setAdding(true)}
            onLink={() => {
              if (!open) onToggle();
              setLinking((l) => !l);
            }}
          />
        }
      >
        {linking && (
          <div className={styles.picker}>
            <RecordPicker
              entityType="contact"
              placeholder="Search for a contact"
              disabledIds={linkedIds}
              onPick={(hit) => void link(hit.id)}
              autoFocus
              data-testid="drawer-link-contact-picker"
            />
          </div>
        )}
        {links.length === 0 ? (
          <SectionNote testId="drawer-contacts-empty">No contacts linked yet. Add a new contact or link an existing one.</SectionNote>
        ) : (
          <ul className={styles.list} aria-label="Contacts">
            {links.map((l) => (
              <li
                key={l.contactId}
                className={styles.row}
                data-testid="drawer-contact-row"
                data-contact-id={l.contactId}
                data-key={l.isKey ? 'true' : 'false'}
              >
                <Tooltip content={l.isKey ? 'Key contact' : 'Make key contact'} relationship="label">
                  <Button
                    appearance="transparent"
                    size="small"
                    className={mergeClasses(styles.marker, l.isKey && styles.markerOn)}
                    icon={busyId === l.contactId ? <Spinner aria-hidden size="extra-tiny" /> : l.isKey ? <StarFilled /> : <StarRegular />}
                    aria-pressed={l.isKey}
                    disabled={busyId !== null}
                    onClick={() => {
                      if (!l.isKey) void makeKey(l.contactId);
                    }}
                    data-testid="drawer-key-marker"
                  />
                </Tooltip>
                <button
                  type="button"
                  className={styles.open}
                  onClick={() => drawer.push({ entityType: 'contact', id: l.contactId })}
                  data-testid="drawer-contact-open"
                >
                  <span className={styles.name}>{contactDisplayName(l)}</span>
                  <span className={styles.sub}>{l.email}</span>
                </button>
                <span className={styles.badges}>
                  {l.label && (
                    <Badge appearance="outline" color="informative" size="small">
                      {l.label}
                    </Badge>
                  )}
                  {l.isKey && (
                    <Badge appearance="tint" color="warning" size="small" data-testid="drawer-key-badge">
                      Key
                    </Badge>
                  )}
                </span>
              </li>
            ))}
          </ul>
        )}
      </DrawerSection>
      <ContactDialog
        open={adding}
        onOpenChange={setAdding}
        linkCompany={{ id: company.id, title: company.name, subtitle: company.domain || company.website }}
        defaultOwnerId={defaultOwnerId}
        // Show the new contact where it lands.
        onSaved={() => {
          if (!open) onToggle();
        }}
      />
    </>
  );
}

export function CompaniesSection({
  contact,
  open,
  onToggle,
  defaultOwnerId,
}: {
  contact: ContactDetails;
  open: boolean;
  onToggle: () => void;
  defaultOwnerId?: string | null;
}) {
  const styles = useStyles();
  const api = useApi();
  const drawer = useDrawer();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [linking, setLinking] = useState(false);
  const [adding, setAdding] = useState(false);
  const [busyId, setBusyId] = useState<string | null>(null);
  const links = useMemo(() => sortCompanyLinks(contact.entityMapping), [contact.entityMapping]);
  const linkedIds = useMemo(() => new Set(contact.entityMapping.map((m) => m.companyId)), [contact.entityMapping]);

  const refresh = (companyId: string) => invalidateRecords(queryClient, { contactIds: [contact.id], companyIds: [companyId] });

  const makePrimary = async (companyId: string) => {
    setBusyId(companyId);
    try {
      await api.contacts.setPrimary(contact.id, companyId);
      notify.success(ENTITY_MESSAGES.primarySet);
      await refresh(companyId);
    } catch (e) {
      notify.error(serverMessage(e) ?? 'Could not change the primary company');
    } finally {
      setBusyId(null);
    }
  };

  const link = async (companyId: string) => {
    setLinking(false);
    setBusyId(companyId);
    try {
      await api.companies.link({ companyId, contactId: contact.id });
      notify.success(ENTITY_MESSAGES.linked);
      await refresh(companyId);
    } catch (e) {
      notify.error(serverMessage(e) ?? 'Could not link the company');
    } finally {
      setBusyId(null);
    }
  };

  return (
    <>
      <DrawerSection
        id="companies"
        title="Companies"
        count={links.length}
        open={open}
        onToggle={onToggle}
        actions={
          <SectionActions
            addLabel="Add a company"
            linkLabel="Link a company"
            linking={linking}
            prefix="company"
            onAdd={() => setAdding(true)}
            onLink={() => {
              if (!open) onToggle();
              setLinking((l) => !l);
            }}
          />
        }
      >
        {linking && (
          <div className={styles.picker}>
            <RecordPicker
              entityType="company"
              placeholder="Search for a company"
              disabledIds={linkedIds}
              onPick={(hit) => void link(hit.id)}
              autoFocus
              data-testid="drawer-link-company-picker"
            />
          </div>
        )}
        {links.length === 0 ? (
          <SectionNote testId="drawer-companies-empty">No companies linked yet. Add a new company or link an existing one.</SectionNote>
        ) : (
          <ul className={styles.list} aria-label="Companies">
            {links.map((l) => (
              <li
                key={l.companyId}
                className={styles.row}
                data-testid="drawer-company-row"
                data-company-id={l.companyId}
                data-primary={l.isPrimary ? 'true' : 'false'}
              >
                <Tooltip content={l.isPrimary ? 'Primary company' : 'Make primary company'} relationship="label">
                  <Button
                    appearance="transparent"
                    size="small"
                    className={mergeClasses(styles.marker, l.isPrimary && styles.markerOn)}
                    icon={
                      busyId === l.companyId ? <Spinner aria-hidden size="extra-tiny" /> : l.isPrimary ? <StarFilled /> : <StarRegular />
                    }
                    aria-pressed={l.isPrimary}
                    disabled={busyId !== null}
                    onClick={() => {
                      if (!l.isPrimary) void makePrimary(l.companyId);
                    }}
                    data-testid="drawer-primary-marker"
                  />
                </Tooltip>
                <button
                  type="button"
                  className={styles.open}
                  onClick={() => drawer.push({ entityType: 'company', id: l.companyId })}
                  data-testid="drawer-company-open"
                >
                  <span className={styles.name}>{l.name}</span>
                  <span className={styles.sub}>{l.website}</span>
                </button>
                <span className={styles.badges}>
                  {l.label && (
                    <Badge appearance="outline" color="informative" size="small">
                      {l.label}
                    </Badge>
                  )}
                  {l.isPrimary && (
                    <Badge appearance="tint" color="brand" size="small" data-testid="drawer-primary-badge">
                      Primary
                    </Badge>
                  )}
                </span>
              </li>
            ))}
          </ul>
        )}
      </DrawerSection>
      <CompanyDialog
        open={adding}
        onOpenChange={setAdding}
        linkContact={{ id: contact.id, title: contactDisplayName(contact), subtitle: contact.email }}
        defaultOwnerId={defaultOwnerId}
        // Show the new company where it lands.
        onSaved={() => {
          if (!open) onToggle();
        }}
      />
    </>
  );
}
