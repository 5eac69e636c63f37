// /contacts: the contacts table (spec 002 §2, §7; spec 001 §2 'Table filters', §9: 10 rows by default).
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons';
import type { ContactDto } from '@dealscout/shared/contracts';
import { EntityTable, useDrawer } from '@dealscout/shared/ui';
import { ContactDialog } from '../shell/lazy-parts';
import { useUser } from '../session/hooks/useSession';
import { CONTACT_COLUMNS } from './columns';
import { CONTACT_DEFAULT_SORT } from './sorts';

export default function ContactsPage() {
  const user = useUser();
  const drawer = useDrawer();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  return (
    <div className="ds-table-page" data-testid="contacts-page">
      <EntityTable<ContactDto>
        entityType="contact"
        onNewPlay={() => navigate('/playbooks/new')}
        columns={CONTACT_COLUMNS}
        // The server's order (last name, then first name) until a header is clicked.
        defaultSort={CONTACT_DEFAULT_SORT}
        nouns={{ one: 'contact', many: 'contacts' }}
        searchPlaceholder="Search contacts"
        toolbarEnd={
          <Button appearance="primary" size="small" icon={<AddRegular />} onClick={() => setCreating(true)} data-testid="table-new-contact">
            New Contact
          </Button>
        }
      />
      <ContactDialog
        open={creating}
        onOpenChange={setCreating}
        defaultOwnerId={user.id}
        onSaved={(r) => drawer.open({ entityType: 'contact', id: r.id })}
      />
    </div>
  );
}
