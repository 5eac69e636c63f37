import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import {
  Avatar,
  Button,
  Menu,
  MenuDivider,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  Tooltip,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import {
  AddRegular,
  BookOpenRegular,
  BuildingRegular,
  ComposeRegular,
  NoteAddRegular,
  OrganizationRegular,
  PersonAddRegular,
  PersonCircleRegular,
  SignOutRegular,
  TableSimpleRegular,
} from '@fluentui/react-icons';
import type { UserDto } from '@dealscout/shared/contracts';
import { CrmSyncButton, NotificationBell, useDrafts, useDrawer, useMiniDrawer, useNotify } from '@dealscout/shared/ui';
import { signOut } from '../../session/session-controller';
import { recordPagePath, showsRecordDrawer } from '../navigation';
import { CompanyDialog, ContactDialog, NewFieldDialog } from '../lazy-parts';

const useStyles = makeStyles({
  actions: { display: 'flex', alignItems: 'center', gap: '4px' },
  iconButton: { minWidth: '32px' },
  avatarButton: { padding: '2px', minWidth: 0, borderRadius: tokens.borderRadiusCircular },
  userRow: { cursor: 'default' },
});

export type NewDialog = 'company' | 'contact' | 'field';

/** Spec 000 §2 'New menu': New Contact, New Company, New Play (/playbooks/new), New Field. */
export function NewMenu({ onNew }: { onNew: (d: NewDialog) => void }) {
  const navigate = useNavigate();
  return (
    <Menu positioning="below-end">
      <MenuTrigger disableButtonEnhancement>
        <Button appearance="primary" icon={<AddRegular />} data-testid="new-menu-button">
          New
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          <MenuItem icon={<PersonAddRegular />} onClick={() => onNew('contact')} data-testid="new-contact">
            New Contact
          </MenuItem>
          <MenuItem icon={<BuildingRegular />} onClick={() => onNew('company')} data-testid="new-company">
            New Company
          </MenuItem>
          <MenuItem icon={<BookOpenRegular />} onClick={() => navigate('/playbooks/new')} data-testid="new-play">
            New Play
          </MenuItem>
          <MenuItem icon={<TableSimpleRegular />} onClick={() => onNew('field')} data-testid="new-field">
            New Field
          </MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}

export const CRM_NOT_ENABLED = 'CRM integration is not enabled. Please configure CRM integration for the organization.';

/** Spec 000 §2 'Profile menu'. */
function ProfileMenu({ user }: { user: UserDto }) {
  const styles = useStyles();
  const navigate = useNavigate();
  const name = `${user.firstName} ${user.lastName}`.trim() || user.email;
  return (
    <Menu positioning="below-end">
      <MenuTrigger disableButtonEnhancement>
        <Button appearance="transparent" className={styles.avatarButton} aria-label="Profile menu" data-testid="profile-menu-button">
          <Avatar name={name} color="colorful" size={32} />
        </Button>
      </MenuTrigger>
      <MenuPopover data-testid="profile-menu">
        <MenuList>
          <MenuItem
            disabled
            className={styles.userRow}
            subText={user.email}
            icon={<Avatar name={name} size={20} color="colorful" />}
            data-testid="profile-menu-user"
          >
            {name}
          </MenuItem>
          <MenuDivider />
          <MenuItem
            icon={<PersonCircleRegular />}
            subText="Change your settings"
            onClick={() => navigate('/account/profile')}
            data-testid="profile-menu-profile"
          >
            Profile
          </MenuItem>
          {user.isAdmin && (
            <MenuItem
              icon={<OrganizationRegular />}
              subText="Review your organization"
              onClick={() => navigate('/organization/settings')}
              data-testid="profile-menu-organization"
            >
              Organization
            </MenuItem>
          )}
          <MenuItem icon={<SignOutRegular />} subText="We'll miss you" onClick={() => void signOut()} data-testid="profile-menu-logout">
            Logout
          </MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}

export const DRAFT_EMAIL_HINT = 'Open a company or a contact to draft an email to it.';

export function HeaderActions({ user }: { user: UserDto }) {
  const styles = useStyles();
  const drawer = useDrawer();
  const mini = useMiniDrawer();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const drafts = useDrafts();
  const notify = useNotify();
  const [dialog, setDialog] = useState<NewDialog | null>(null);
  const close = (open: boolean) => {
    if (!open) setDialog(null);
  };
  // A new record opens in the detail drawer, on a page that has one.
  const openRecord = (entityType: 'company' | 'contact', id: string) => {
    if (!showsRecordDrawer(pathname)) navigate(recordPagePath(entityType));
    drawer.open({ entityType, id });
  };
  return (
    <div className={styles.actions}>
      <NewMenu onNew={setDialog} />
      {/* A new record opens in the detail drawer. */}
      <CompanyDialog
        open={dialog === 'company'}
        onOpenChange={close}
        defaultOwnerId={user.id}
        onSaved={(c) => openRecord('company', c.id)}
      />
      <ContactDialog
        open={dialog === 'contact'}
        onOpenChange={close}
        defaultOwnerId={user.id}
        onSaved={(c) => openRecord('contact', c.id)}
      />
      <NewFieldDialog
        open={dialog === 'field'}
        onOpenChange={close}
        entityType={pathname.startsWith('/contacts') ? 'contact' : 'company'}
      />
      <Tooltip content="Draft Email" relationship="label">
        <Button
          appearance="subtle"
          className={styles.iconButton}
          icon={<ComposeRegular />}
          onClick={() => {
            // A draft to the record open in the drawer; else the last draft; else say what to do.
            const t = showsRecordDrawer(pathname) ? drawer.target : null;
            if (t) void drafts?.create(t.entityType === 'contact' ? { contactId: t.id } : { companyId: t.id });
            else if (drafts && drafts.drafts.length > 0) drafts.open(drafts.drafts[0].channelEmailId);
            else notify.info(DRAFT_EMAIL_HINT);
          }}
          data-testid="draft-email-button"
        />
      </Tooltip>
      <CrmSyncButton isAdmin={user.isAdmin} />
      <NotificationBell onNavigate={(href) => navigate(href)} />
      {/* The header's last control (its content is not shown in the spec): the mini drawer. */}
      <Tooltip content="Log Activity / Run Play" relationship="label">
        <Button
          appearance="subtle"
          className={styles.iconButton}
          icon={<NoteAddRegular />}
          onClick={() => (mini?.isOpen ? mini.close() : mini?.open())}
          aria-pressed={mini?.isOpen ?? false}
          data-testid="mini-drawer-button"
        />
      </Tooltip>
      <ProfileMenu user={user} />
    </div>
  );
}
