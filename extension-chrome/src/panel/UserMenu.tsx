// The header's menu of the signed-in user (in a chunk of its own: the panel's first view does not
// need Fluent's menu, avatar and positioning): the email, the server address, Sign out.
import { Avatar, Button, Menu, MenuItem, MenuList, MenuPopover, MenuTrigger } from '@fluentui/react-components';
import { SignOutRegular, SettingsRegular } from '@fluentui/react-icons';
import type { StoredSession } from '../host/types';

export default function UserMenu({
  session,
  onOpenOptions,
  onSignOut,
}: {
  session: StoredSession;
  onOpenOptions(): void;
  onSignOut(): void;
}) {
  return (
    <Menu>
      <MenuTrigger disableButtonEnhancement>
        <Button
          appearance="subtle"
          size="small"
          icon={<Avatar size={20} name={`${session.user.firstName} ${session.user.lastName}`} />}
          data-testid="panel-user"
          aria-label={`Signed in as ${session.user.email}`}
        />
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          <MenuItem disabled>{session.user.email}</MenuItem>
          <MenuItem icon={<SettingsRegular />} onClick={onOpenOptions}>
            Server address
          </MenuItem>
          <MenuItem icon={<SignOutRegular />} onClick={onSignOut} data-testid="panel-sign-out">
            Sign out
          </MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
