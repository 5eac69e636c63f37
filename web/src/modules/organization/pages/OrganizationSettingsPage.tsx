import { useMemo, useState } from 'react';
import { Button, MessageBar, MessageBarBody, Spinner, Text, Title2, Subtitle1, makeStyles, tokens } from '@fluentui/react-components';
import { PeopleAddRegular, ShieldLockRegular } from '@fluentui/react-icons';
import { ORGANIZATION_MESSAGES } from '@dealscout/shared/contracts';
import { CurrencySettingsCard, InviteUsersModal, LlmSettingsCard, useNotify } from '@dealscout/shared/ui';
import { api } from '../../../app/api';
import { EmptyState } from '../../../components/EmptyState';
import { useUser } from '../../session/hooks/useSession';
import { useInvalidateOrganization, useOrganization, useOrganizationUsers, useSystemRoles } from '../hooks/useOrganization';
import { UsersTable } from '../components/UsersTable';
import { CrmIntegrations } from '../../integrations/CrmIntegrations';
import { UserActionDialogs, type UserAction } from '../components/UserActionDialogs';

const useStyles = makeStyles({
  root: { maxWidth: '1120px', margin: '0 auto', display: 'flex', flexDirection: 'column', gap: '16px' },
  head: { display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: '16px', flexWrap: 'wrap' },
  muted: { color: tokens.colorNeutralForeground2 },
  seats: {
    display: 'flex',
    gap: '24px',
    flexWrap: 'wrap',
    padding: '16px 20px',
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow4,
  },
  stat: { display: 'flex', flexDirection: 'column' },
  statValue: { fontSize: tokens.fontSizeBase600, fontWeight: tokens.fontWeightSemibold, lineHeight: tokens.lineHeightBase600 },
  section: { display: 'flex', flexDirection: 'column', gap: '8px' },
  tableWrap: {
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow4,
    overflow: 'auto',
    backgroundColor: tokens.colorNeutralBackground1,
  },
});

export const ADMIN_ROLE_REQUIRED = 'You need the Admin role';

export default function OrganizationSettingsPage() {
  const user = useUser();
  if (!user.isAdmin) {
    return (
      <EmptyState icon={ShieldLockRegular} title={ADMIN_ROLE_REQUIRED}>
        {ADMIN_ROLE_REQUIRED} to open the organization settings. Please ask your organization Admin.
      </EmptyState>
    );
  }
  return <AdminOrganizationSettings />;
}

function AdminOrganizationSettings() {
  const styles = useStyles();
  const user = useUser();
  const notify = useNotify();
  const invalidate = useInvalidateOrganization();
  const org = useOrganization(true);
  const members = useOrganizationUsers(true);
  const roles = useSystemRoles(true);
  const [inviteOpen, setInviteOpen] = useState(false);
  const [action, setAction] = useState<UserAction | null>(null);

  const rolesError = roles.isError ? ORGANIZATION_MESSAGES.rolesFailed : null;
  const existingEmails = useMemo(
    () => [...(members.data?.users.map((u) => u.email) ?? []), ...(members.data?.invitations.map((i) => i.email) ?? [])],
    [members.data],
  );

  if (org.isPending) return <Spinner label="Loading..." />;
  if (org.isError) {
    return (
      <MessageBar intent="error" data-testid="org-error">
        <MessageBarBody>{ORGANIZATION_MESSAGES.notFound}</MessageBarBody>
      </MessageBar>
    );
  }
  const seats = org.data.seats;

  return (
    <div className={styles.root} data-testid="organization-page">
      <div className={styles.head}>
        <div className="ds-intro">
          <Title2 as="h1" block data-testid="org-name">
            {org.data.name}
          </Title2>
          {org.data.website && (
            <Text as="p" block className={styles.muted}>
              {org.data.website}
            </Text>
          )}
        </div>
        <Button appearance="primary" icon={<PeopleAddRegular />} onClick={() => setInviteOpen(true)} data-testid="invite-users-button">
          Invite Users
        </Button>
      </div>

      <div className={styles.seats} data-testid="org-seats" data-available={seats.available}>
        <div className={styles.stat}>
          <span className={styles.statValue} data-testid="org-seats-available">
            {seats.available}
          </span>
          <Text className={styles.muted}>{seats.available === 1 ? 'seat available' : 'seats available'}</Text>
        </div>
        <div className={styles.stat}>
          <span className={styles.statValue}>{seats.users}</span>
          <Text className={styles.muted}>users</Text>
        </div>
        <div className={styles.stat}>
          <span className={styles.statValue}>{seats.pendingInvites}</span>
          <Text className={styles.muted}>pending invitations</Text>
        </div>
        <div className={styles.stat}>
          <span className={styles.statValue}>{seats.maxUser}</span>
          <Text className={styles.muted}>seats in your plan</Text>
        </div>
      </div>

      <section className={styles.section} aria-label="Users">
        <Subtitle1 as="h2" block>
          Users
        </Subtitle1>
        {rolesError && (
          <MessageBar intent="warning" data-testid="roles-error">
            <MessageBarBody>{rolesError}</MessageBarBody>
          </MessageBar>
        )}
        {members.isPending ? (
          <Spinner label="Loading..." />
        ) : members.isError ? (
          <MessageBar intent="error">
            <MessageBarBody>Could not load the users. Please refresh the page.</MessageBarBody>
          </MessageBar>
        ) : (
          <div className={styles.tableWrap}>
            <UsersTable users={members.data.users} invitations={members.data.invitations} currentUserId={user.id} onAction={setAction} />
          </div>
        )}
      </section>

      <section className={styles.section} aria-label="Integrations" data-testid="org-integrations">
        <Subtitle1 as="h2" block>
          Integrations
        </Subtitle1>
        <CrmIntegrations isAdmin />
      </section>

      <LlmSettingsCard />

      <CurrencySettingsCard />

      <InviteUsersModal
        open={inviteOpen}
        onOpenChange={setInviteOpen}
        seats={seats.available}
        roles={roles.data ?? []}
        rolesLoading={roles.isPending}
        rolesError={rolesError}
        existingEmails={existingEmails}
        onInvite={async (emails, role) => {
          try {
            return await api.organization.invite({ emails, role });
          } finally {
            void invalidate();
          }
        }}
        onInvited={(res) => notify.success(res.message)}
      />
      <UserActionDialogs action={action} onClose={() => setAction(null)} roles={roles.data ?? []} rolesError={rolesError} />
    </div>
  );
}
