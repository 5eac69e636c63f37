// @vitest-environment happy-dom
import '../test-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi, renderWithApi } from '../test-render';
import { ResultValue } from './ResultValue';

afterEach(cleanup);

describe('ResultValue: a failed enrichment says why where the user looks', { timeout: 20_000 }, () => {
  it("shows 'Error', and on click the spec's error display: an 'Error' heading and the status message", async () => {
    const user = userEvent.setup();
    const message = 'MixRank is not configured: set MIXRANK_API_KEY to run LinkedIn enrichments.';
    renderWithApi(<ResultValue result={{ status: 'error', value: null, statusMessage: message }} />, fakeApi({}));
    const cell = screen.getByTestId('enrichment-result');
    expect(cell.textContent).toBe('Error');
    expect(screen.queryByTestId('enrichment-error-message')).toBeNull();
    await user.click(cell);
    expect(screen.getByTestId('enrichment-error-message').textContent).toBe(message);
    expect(screen.getByTestId('enrichment-result').textContent).toBe(`Error${message}`);
    await user.click(screen.getByTestId('enrichment-result'));
    expect(screen.queryByTestId('enrichment-error-message')).toBeNull();
  });
});
