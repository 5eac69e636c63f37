// /list-company/:id: one list with its sources and ideas (spec 002 §2, §4, §7).
import { useNavigate, useParams } from 'react-router';
import { ListIdeas } from '@dealscout/shared/ui';
import { useSaveSettings, useUserConfig } from '../../session/hooks/useSession';

export default function ListPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const config = useUserConfig();
  const save = useSaveSettings();
  const groups = config.drawer.idea.details.showGroups;
  return (
    <div className="ds-table-page" data-testid="list-page-route">
      <ListIdeas
        key={id}
        listId={id}
        drawerGroups={{
          contacts: groups.contacts !== false,
          unassignedEnrichments: groups.unassignedEnrichments !== false,
          companyFields: groups.companyFields !== false,
        }}
        onDrawerGroupsChange={(showGroups) => save.mutate({ drawer: { idea: { details: { showGroups } } } })}
        onDeleted={() => navigate('/list-company')}
        columnWidths={config.listColumnWidths?.[id]}
        onColumnWidthChange={(key, width) => save.mutate({ listColumnWidths: { [id]: { [key]: width } } })}
      />
    </div>
  );
}
