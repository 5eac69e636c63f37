// /list-company: the lists table (spec 002 §2 'Other screens in this area').
import { useNavigate } from 'react-router';
import { ListsTable } from '@dealscout/shared/ui';

export default function ListsPage() {
  const navigate = useNavigate();
  return (
    <div className="ds-table-page" data-testid="lists-page">
      <ListsTable onOpen={(id) => navigate(`/list-company/${id}`)} />
    </div>
  );
}
