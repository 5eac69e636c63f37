// The mixrankCompanyDetails enrichment (shown as LinkedIn): one lookup at the company-details
// provider by the entity's website/domain or LinkedIn URL, answered with the built-in company info
// fields of spec 002 §3. No model is involved.
import { CompanyDetailsError } from '../../../providers/company-details/port';
import { AgentError, type AgentRunResult, type CompanyDetailsOptions, type CompanyInfo } from './types';
import { throwIfCancelled } from './research';

export const COMPANY_DETAILS_NOT_CONFIGURED =
  'No company details provider is configured: set MIXRANK_API_KEY (and MIXRANK_BASE_URL if needed) in the server configuration.';
export const COMPANY_DETAILS_BAD_QUERY = 'The company needs a website or a LinkedIn URL to look up its details.';
export const COMPANY_DETAILS_NOT_FOUND = 'No company details found for this company.';

export async function lookupCompanyDetails(opts: CompanyDetailsOptions): Promise<AgentRunResult<CompanyInfo>> {
  throwIfCancelled(opts.signal);
  const website = opts.query.website?.trim() || null;
  const linkedinUrl = opts.query.linkedinUrl?.trim() || null;
  if (!website && !linkedinUrl) throw new AgentError('bad_query', COMPANY_DETAILS_BAD_QUERY);
  if (!opts.provider.configured) throw new AgentError('not_configured', COMPANY_DETAILS_NOT_CONFIGURED);
  try {
    const { company, source } = await opts.provider.lookup({ website, linkedinUrl }, { signal: opts.signal });
    return { result: company, sources: [{ url: source, title: company.name }] };
  } catch (err) {
    throwIfCancelled(opts.signal);
    if (!(err instanceof CompanyDetailsError)) throw err;
    switch (err.kind) {
      case 'not_configured':
        throw new AgentError('not_configured', COMPANY_DETAILS_NOT_CONFIGURED);
      case 'bad_query':
        throw new AgentError('bad_query', err.message);
      case 'not_found':
        throw new AgentError('not_found', COMPANY_DETAILS_NOT_FOUND);
      case 'cancelled':
        throw new AgentError('cancelled', 'Cancelled');
      default:
        throw new AgentError('provider', err.message, err.retryable);
    }
  }
}
