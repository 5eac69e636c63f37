// 'Upload a CSV or Excel file': pick a file (an .xlsx is turned into CSV in the browser
// first, xlsx.ts), map its name and website columns from its header (guessed, changeable), upload; the outcome says how
// many ideas came in, how many were already in
// the list and how many rows were rejected, with the report of rejected rows to download.
import { useState } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Dropdown,
  Field,
  Option,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import type { RunProgressDto, SourceUploadResponse } from '../../contracts';
import { useApi } from '../ApiContext';
import { useModalSurfaceStyle } from '../PluginMode';
import { csvHeader, guessColumn } from './csvHeader';
import { XLSX_MIME, isXlsx, xlsxToCsvFile } from './xlsx';
import { downloadName } from '../table/EntityTable';
import { ActiveRuns } from '../progress/RunProgress';

/** A CSV upload's progress line (rows read, the rate): the execution of type 'list' that cannot be cancelled. */
const isUpload = (r: RunProgressDto) => r.type === 'list' && r.kind === 'execution' && r.cancellable === false;

export function UploadCsvDialog(props: {
  open: boolean;
  listId: string;
  onClose: () => void;
  onUploaded: (res: SourceUploadResponse) => Promise<void> | void;
}) {
  const api = useApi();
  const surface = useModalSurfaceStyle();
  const [file, setFile] = useState<File | null>(null);
  const [headers, setHeaders] = useState<string[]>([]);
  const [name, setName] = useState('');
  const [website, setWebsite] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<SourceUploadResponse | null>(null);
  const reset = () => {
    setFile(null);
    setHeaders([]);
    setName('');
    setWebsite('');
    setError(null);
    setResult(null);
  };
  const close = () => {
    reset();
    props.onClose();
  };

  const [reading, setReading] = useState(false);
  const pick = async (picked: File | null) => {
    reset();
    if (!picked) return;
    let f = picked;
    if (isXlsx(picked)) {
      setReading(true);
      try {
        f = await xlsxToCsvFile(picked);
      } catch (e) {
        setError(e instanceof Error ? e.message : 'This Excel file could not be read.');
        return;
      } finally {
        setReading(false);
      }
    }
    setFile(f);
    const head = csvHeader(await f.slice(0, 64 * 1024).text());
    setHeaders(head.headers);
    setName(guessColumn(head.headers, 'name'));
    setWebsite(guessColumn(head.headers, 'website'));
  };
  const upload = async () => {
    if (!file) return setError('Please choose a file to upload.');
    if (!name || !website) return setError('Please map the name and website columns.');
    setBusy(true);
    setError(null);
    try {
      const res = await api.lists.uploadCsv(props.listId, { name, website }, file, file.name);
      setResult(res);
      setBusy(false);
      await props.onUploaded(res);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The upload failed');
      setBusy(false);
    }
  };
  const downloadRejected = async () => {
    if (!result) return;
    const res = await api.lists.rejectedRows(result.sourceId);
    const blob = await res.blob();
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = downloadName(res.headers.get('content-disposition'), 'rejected-rows.csv');
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <Dialog
      open={props.open}
      onOpenChange={(_, d) => {
        if (!d.open) close();
      }}
    >
      <DialogSurface style={surface} data-testid="upload-csv-dialog">
        <DialogBody>
          <DialogTitle>Upload a CSV or Excel file</DialogTitle>
          <DialogContent style={{ display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM }}>
            {!result && (
              <>
                <Field label="File (CSV in UTF-8, comma, semicolon or tab separated; or Excel .xlsx, its first sheet)" required>
                  <input
                    type="file"
                    accept={`.csv,text/csv,.xlsx,${XLSX_MIME}`}
                    onChange={(e) => void pick(e.target.files?.[0] ?? null)}
                    aria-label="CSV or Excel file"
                    data-testid="upload-csv-file"
                  />
                </Field>
                {headers.length > 0 && (
                  <>
                    <Field label="Company name column" required>
                      <Dropdown
                        value={name}
                        selectedOptions={[name]}
                        onOptionSelect={(_, d) => setName(d.optionValue ?? '')}
                        data-testid="upload-csv-name"
                      >
                        {headers.map((h) => (
                          <Option key={h} value={h}>
                            {h}
                          </Option>
                        ))}
                      </Dropdown>
                    </Field>
                    <Field label="Website column" required>
                      <Dropdown
                        value={website}
                        selectedOptions={[website]}
                        onOptionSelect={(_, d) => setWebsite(d.optionValue ?? '')}
                        data-testid="upload-csv-website"
                      >
                        {headers.map((h) => (
                          <Option key={h} value={h}>
                            {h}
                          </Option>
                        ))}
                      </Dropdown>
                    </Field>
                    <Text size={200}>
                      The other columns ({headers.filter((h) => h !== name && h !== website).join(', ') || 'none'}) are kept with each idea.
                      Rows are deduplicated by domain.
                    </Text>
                  </>
                )}
              </>
            )}
            {reading && <Spinner size="small" label="Reading the Excel file…" />}
            {busy && <Spinner size="small" label="Uploading and importing…" />}
            {(busy || result) && (
              // While it runs, the upload running now; then this upload's own line (rows imported, the rate).
              <ActiveRuns match={(r) => isUpload(r) && (result ? r.typeId === result.sourceId : r.status === 'running')} />
            )}
            {error && (
              <Text role="alert" style={{ color: tokens.colorPaletteRedForeground1 }} data-testid="upload-csv-error">
                {error}
              </Text>
            )}
            {result && (
              <div data-testid="upload-csv-result">
                <Text block>{result.message}.</Text>
                {result.rejected > 0 && (
                  <Button appearance="secondary" size="small" onClick={() => void downloadRejected()} data-testid="upload-csv-rejected">
                    Download the rejected rows
                  </Button>
                )}
              </div>
            )}
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={close}>
              {result ? 'Close' : 'Cancel'}
            </Button>
            {!result && (
              <Button appearance="primary" disabled={busy || !file} onClick={() => void upload()} data-testid="upload-csv-submit">
                Upload
              </Button>
            )}
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
