import { PeopleRegular } from '@fluentui/react-icons';
import { EmptyState } from '../../../components/EmptyState';

export default function ContactsPage() {
  return (
    <EmptyState icon={PeopleRegular} title="Contacts">
      Contacts arrive with the records module: tables, filters, the detail drawer.
    </EmptyState>
  );
}
