import {
  Avatar,
  Badge,
  Button,
  Table,
  TableBody,
  TableCell,
  TableCellLayout,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import {
  DeleteRegular,
  DismissCircleRegular,
  PersonArrowRightRegular,
  PersonProhibitedRegular,
  PersonAvailableRegular,
  MailRegular,
} from '@fluentui/react-icons';
import type { MemberDto, PendingInviteDto } from '@dealscout/shared/contracts';
import { fullName, type UserAction } from './UserActionDialogs';

const useStyles = makeStyles({
  table: { backgroundColor: tokens.colorNeutralBackground1, minWidth: '860px' },
  actions: { display: 'flex', alignItems: 'center', gap: '4px', flexWrap: 'wrap' },
  you: { color: tokens.colorNeutralForeground3, marginLeft: '6px' },
  pending: { color: tokens.colorNeutralForeground3, fontStyle: 'italic' },
  muted: { color: tokens.colorNeutralForeground3 },
  danger: { color: tokens.colorPaletteRedForeground1 },
});

function formatDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

export function UsersTable({
  users,
  invitations,
  currentUserId,
  onAction,
}: {
  users: readonly MemberDto[];
  invitations: readonly PendingInviteDto[];
  currentUserId: string;
  onAction: (a: UserAction) => void;
}) {
  const styles = useStyles();
  return (
    <Table className={styles.table} aria-label="Users" data-testid="org-users-table">
      <TableHeader>
        <TableRow>
          <TableHeaderCell>Name</TableHeaderCell>
          <TableHeaderCell>Email</TableHeaderCell>
          <TableHeaderCell style={{ width: 100 }}>Role</TableHeaderCell>
          <TableHeaderCell style={{ width: 130 }}>Status</TableHeaderCell>
          <TableHeaderCell style={{ width: 300 }}>Actions</TableHeaderCell>
        </TableRow>
      </TableHeader>
      <TableBody>
        {users.map((u) => {
          const self = u.id === currentUserId;
          const name = fullName(u);
          return (
            <TableRow key={u.id} data-testid="org-user-row" data-email={u.email} data-status={u.status} data-role={u.role}>
              <TableCell>
                <TableCellLayout media={<Avatar name={name} size={28} color="colorful" />}>
                  {name}
                  {self && <span className={styles.you}>(you)</span>}
                </TableCellLayout>
              </TableCell>
              <TableCell>{u.email}</TableCell>
              <TableCell data-testid="org-user-role">{u.role}</TableCell>
              <TableCell>
                {u.status === 'active' ? (
                  <Badge appearance="tint" color="success" data-testid="org-user-status">
                    Active
                  </Badge>
                ) : (
                  <Badge appearance="tint" color="danger" data-testid="org-user-status">
                    Disabled
                  </Badge>
                )}
              </TableCell>
              <TableCell>
                {self ? (
                  <Text size={200} className={styles.muted}>
                    Manage your own account on the Profile page
                  </Text>
                ) : (
                  <div className={styles.actions}>
                    <Button
                      size="small"
                      appearance="subtle"
                      icon={<PersonArrowRightRegular />}
                      onClick={() => onAction({ kind: 'role', user: u })}
                      data-testid="user-change-role"
                    >
                      Change role
                    </Button>
                    <Button
                      size="small"
                      appearance="subtle"
                      icon={u.status === 'active' ? <PersonProhibitedRegular /> : <PersonAvailableRegular />}
                      onClick={() => onAction({ kind: 'status', user: u })}
                      data-testid="user-toggle-status"
                    >
                      {u.status === 'active' ? 'Disable' : 'Enable'}
                    </Button>
                    <Button
                      size="small"
                      appearance="subtle"
                      className={styles.danger}
                      icon={<DeleteRegular />}
                      onClick={() => onAction({ kind: 'delete', user: u })}
                      data-testid="user-delete"
                    >
                      Delete
                    </Button>
                  </div>
                )}
              </TableCell>
            </TableRow>
          );
        })}
        {invitations.map((inv) => (
          <TableRow key={`inv-${inv.id}`} data-testid="org-invite-row" data-email={inv.email} data-role={inv.role}>
            <TableCell>
              <TableCellLayout media={<Avatar icon={<MailRegular />} size={28} />}>
                <span className={styles.pending}>Pending invitation</span>
              </TableCellLayout>
            </TableCell>
            <TableCell>{inv.email}</TableCell>
            <TableCell>{inv.role}</TableCell>
            <TableCell>
              <Badge appearance="tint" color="warning" title={`Expires ${formatDate(inv.expiresAt)}`} data-testid="org-invite-status">
                Invited
              </Badge>
            </TableCell>
            <TableCell>
              <div className={styles.actions}>
                <Button
                  size="small"
                  appearance="subtle"
                  icon={<DismissCircleRegular />}
                  onClick={() => onAction({ kind: 'revoke', invitation: inv })}
                  data-testid="invite-revoke"
                >
                  Revoke
                </Button>
                <Text size={200} className={styles.muted}>
                  Expires {formatDate(inv.expiresAt)}
                </Text>
              </div>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
