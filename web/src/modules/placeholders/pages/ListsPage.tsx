import { TextBulletListLtrRegular } from '@fluentui/react-icons';
import { EmptyState } from '../../../components/EmptyState';

export default function ListsPage() {
  return (
    <EmptyState icon={TextBulletListLtrRegular} title="Lists">
      Lists arrive with the lists module: lists of ideas from CSV uploads, manual adds, lookalike search and data providers, with enrichments and scoring models.
    </EmptyState>
  );
}
