// Scores explain themselves: per field, the value seen, the rule that matched (or the
// default and why), the score, the weight and the contribution to the total. The ideas table's score
// cell opens this; the export carries the same figures.
import { Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, Text, makeStyles, tokens } from '@fluentui/react-components';
import { describeFieldScore, type FieldScore, type ScoreRuleSet } from '../../domain/scoring';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  num: { textAlign: 'right', fontVariantNumeric: 'tabular-nums' },
});

export interface ScoreBreakdownProps {
  totalScore: number;
  fields: readonly FieldScore[];
  /** The model's rule sets, to word the rule that matched; without them the score alone is shown. */
  ruleSets?: readonly ScoreRuleSet[];
  modelName?: string;
}

export function ScoreBreakdown({ totalScore, fields, ruleSets, modelName }: ScoreBreakdownProps) {
  const styles = useStyles();
  const ruleOf = (f: FieldScore) => ruleSets?.find((rs) => rs.id === f.ruleSetId)?.rules.find((r) => r.id === f.ruleId) ?? null;
  return (
    <div className={styles.root} data-testid="score-breakdown">
      <Text weight="semibold">
        {modelName ? `${modelName}: ` : ''}
        {totalScore.toFixed(2)} / 10
      </Text>
      <Table size="small" aria-label="Score breakdown">
        <TableHeader>
          <TableRow>
            <TableHeaderCell style={{ width: '16%' }}>Field</TableHeaderCell>
            <TableHeaderCell style={{ width: '22%' }}>Value</TableHeaderCell>
            <TableHeaderCell style={{ width: '32%' }}>Why</TableHeaderCell>
            <TableHeaderCell className={styles.num}>Score</TableHeaderCell>
            <TableHeaderCell className={styles.num}>Weight</TableHeaderCell>
            <TableHeaderCell className={styles.num}>Contribution</TableHeaderCell>
          </TableRow>
        </TableHeader>
        <TableBody>
          {fields.map((f) => (
            <TableRow key={f.ruleSetId} data-testid="score-breakdown-row">
              <TableCell>{f.label}</TableCell>
              <TableCell>{f.value ?? '—'}</TableCell>
              <TableCell>{describeFieldScore(f, ruleOf(f))}</TableCell>
              <TableCell className={styles.num}>{f.score}</TableCell>
              <TableCell className={styles.num}>{f.weight}</TableCell>
              <TableCell className={styles.num}>{f.contribution.toFixed(2)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
