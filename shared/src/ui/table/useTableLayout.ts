// The per-user column layout of a table, saved through /api/v1/user/tablelayout/{entityType}:
// the first saved layout is used; without one the first change creates it (POST, 201), later
// changes update it (PUT). Changes apply at once and are saved one after the other.
import { useCallback, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TableLayoutDto } from '../../contracts';
import { tableLayoutsQuery } from './firstPage';
import { useApi, queryKeys } from '../ApiContext';
import { useNotify } from '../toast';
import { mergeLayout, type ColumnDefault, type ColumnLayout } from './layout';

export const LAYOUT_NAME = 'Default';
export const LAYOUT_SAVE_FAILED = 'Could not save the column layout';

export interface TableLayoutState {
  layout: ColumnLayout[];
  /** The saved layout has been read (or could not be). */
  ready: boolean;
  saving: boolean;
  save: (columns: ColumnLayout[]) => void;
  reset: () => void;
}

export function useTableLayout(entityType: 'company' | 'contact', defaults: readonly ColumnDefault[]): TableLayoutState {
  const api = useApi();
  const qc = useQueryClient();
  const notify = useNotify();
  const key = queryKeys.tableLayouts(entityType);
  const query = useQuery(tableLayoutsQuery(api, entityType));
  const saved = query.data?.[0] ?? null;
  const defaultsKey = JSON.stringify(defaults);
  const layout = useMemo(() => mergeLayout(saved?.columns, defaults), [saved, defaultsKey]);

  const chain = useRef<Promise<void>>(Promise.resolve());
  const pending = useRef(0);
  const [saving, setSaving] = useState(false);

  const save = useCallback(
    (columns: ColumnLayout[]) => {
      const normalized = columns.map((c, i) => ({ key: c.key, order: i, width: Math.round(c.width), visible: c.visible }));
      // Apply at once (the table re-renders with the new layout while the request runs).
      qc.setQueryData<TableLayoutDto[]>(key, (old) => {
        const first = old?.[0];
        const next: TableLayoutDto = first
          ? { ...first, columns: normalized }
          : { id: '', entityType, name: LAYOUT_NAME, columns: normalized, updatedAt: new Date().toISOString() };
        return [next, ...(old?.slice(1) ?? [])];
      });
      pending.current += 1;
      setSaving(true);
      chain.current = chain.current
        .then(async () => {
          const current = qc.getQueryData<TableLayoutDto[]>(key)?.[0];
          const body = { name: current?.name || LAYOUT_NAME, columns: normalized };
          const res = current?.id
            ? await api.tableLayouts.update(entityType, { id: current.id, ...body })
            : await api.tableLayouts.create(entityType, body);
          // Keep the newest columns on screen; take the id (and name) the server gave.
          qc.setQueryData<TableLayoutDto[]>(key, (old) => {
            const first = old?.[0];
            return [{ ...res.layout, columns: first?.columns ?? res.layout.columns }, ...(old?.slice(1) ?? [])];
          });
        })
        .catch(() => notify.error(LAYOUT_SAVE_FAILED))
        .finally(() => {
          pending.current -= 1;
          if (pending.current === 0) setSaving(false);
        });
    },
    [api, qc, entityType, notify],
  );

  const reset = useCallback(() => save(mergeLayout(null, defaults)), [save, defaultsKey]);

  return { layout, ready: !query.isPending, saving, save, reset };
}
