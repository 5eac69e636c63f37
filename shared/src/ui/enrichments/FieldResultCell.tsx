// A custom field's cell in the companies and contacts tables: while the field's primary enrichment
// runs on the row, its status (preprocessing greyed, 'Processing...', 'Error'); otherwise the
// field's value, or the finished result when the value has not been re-read yet.
import type { FieldDto } from '../../contracts';
import { resultDisplay } from '../../domain';
import { useCellResult } from './liveResults';
import { ResultValue } from './ResultValue';

export function primaryEnrichmentId(field: Pick<FieldDto, 'assignedEnrichments'>): string | null {
  return field.assignedEnrichments.find((a) => a.isPrimary)?.id ?? null;
}

export function FieldResultCell({ field, entityId, text }: { field: FieldDto; entityId: string; text: string }) {
  const result = useCellResult(primaryEnrichmentId(field), entityId);
  if (result && (result.status === 'preprocessing' || result.status === 'processing' || result.status === 'error')) {
    const d = resultDisplay(result.status === 'preprocessing' && !result.value && text ? { status: 'preprocessing', value: text } : result);
    return <ResultValue display={d} />;
  }
  if (!text && result?.status === 'complete') return <ResultValue result={result} />;
  return <>{text}</>;
}
