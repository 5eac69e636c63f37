// A custom field's cell in the companies and contacts tables: while the field's primary enrichment
// runs on the row, its status (preprocessing greyed, 'Processing...', 'Error'); otherwise the
// field's value (the one value renderer), or the finished result when the value has not been re-read yet.
import type { FieldDto } from '../../contracts';
import { formatFieldParts, resultDisplay } from '../../domain';
import { ValueView } from '../values/ValueView';
import { useCellResult } from './liveResults';
import { ResultValue } from './ResultValue';

export function primaryEnrichmentId(field: Pick<FieldDto, 'assignedEnrichments'>): string | null {
  return field.assignedEnrichments.find((a) => a.isPrimary)?.id ?? null;
}

export function FieldResultCell({ field, entityId, text, value }: { field: FieldDto; entityId: string; text: string; value?: unknown }) {
  const result = useCellResult(primaryEnrichmentId(field), entityId);
  if (result && (result.status === 'preprocessing' || result.status === 'processing' || result.status === 'error')) {
    const d = resultDisplay(result.status === 'preprocessing' && !result.value && text ? { status: 'preprocessing', value: text } : result);
    return <ResultValue display={d} />;
  }
  if (!text && result?.status === 'complete') return <ResultValue result={result} />;
  return value === undefined ? <>{text}</> : <ValueView value={formatFieldParts(field.dataType, value, { currency: field.currency })} />;
}
