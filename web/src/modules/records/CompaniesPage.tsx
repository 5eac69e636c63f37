// /companies: the companies table (spec 002 §2, §7 'Company'; spec 001 §2 'Table filters').
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons';
import type { CompanyDto } from '@dealscout/shared/contracts';
import { EntityTable, useDrawer } from '@dealscout/shared/ui';
import { CompanyDialog } from '../shell/lazy-parts';
import { useUser } from '../session/hooks/useSession';
import { COMPANY_COLUMNS } from './columns';
import { COMPANY_DEFAULT_SORT } from './sorts';

export default function CompaniesPage() {
  const user = useUser();
  const drawer = useDrawer();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  return (
    <div className="ds-table-page" data-testid="companies-page">
      <EntityTable<CompanyDto>
        entityType="company"
        onNewPlay={() => navigate('/playbooks/new')}
        columns={COMPANY_COLUMNS}
        defaultSort={COMPANY_DEFAULT_SORT}
        nouns={{ one: 'company', many: 'companies' }}
        searchPlaceholder="Search companies"
        toolbarEnd={
          <Button appearance="primary" size="small" icon={<AddRegular />} onClick={() => setCreating(true)} data-testid="table-new-company">
            New Company
          </Button>
        }
      />
      <CompanyDialog
        open={creating}
        onOpenChange={setCreating}
        defaultOwnerId={user.id}
        onSaved={(r) => drawer.open({ entityType: 'company', id: r.id })}
      />
    </div>
  );
}
