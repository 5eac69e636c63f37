import { SparkleRegular } from '@fluentui/react-icons';
import { EmptyState } from '../../../components/EmptyState';

export default function EnrichmentsPage() {
  return (
    <EmptyState icon={SparkleRegular} title="Enrichments">
      Enrichments arrive with the enrichments module: AI prompts with a response schema, web and deep research agents, the company-details lookup and the enrichment editor.
    </EmptyState>
  );
}
