import { BuildingRegular } from '@fluentui/react-icons';
import { EmptyState } from '../../../components/EmptyState';

export default function CompaniesPage() {
  return (
    <EmptyState icon={BuildingRegular} title="Companies">
      Companies arrive with the records module: tables, filters, the detail drawer.
    </EmptyState>
  );
}
