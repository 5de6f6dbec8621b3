import { z } from 'zod';
import { auditExportQuerySchema, auditPageSchema, auditQuerySchema } from './audit.schemas';
import { endpointGroup, signedInErrors } from '../shared/endpoint';

/** At most this many rows in one CSV export. */
export const AUDIT_EXPORT_MAX_ROWS = 100_000;

export const auditEndpoints = endpointGroup('Activity', {
  mine: {
    method: 'GET',
    path: '/api/audit',
    summary: "The person's own trail of changes, newest first, filtered and paged by cursor.",
    query: auditQuerySchema,
    responses: { 200: auditPageSchema, ...signedInErrors() },
  },
  mineCsv: {
    method: 'GET',
    path: '/api/audit/export',
    summary: `The person's own trail as CSV (the filters of /api/audit; at most ${AUDIT_EXPORT_MAX_ROWS.toLocaleString('en-US')} rows).`,
    query: auditExportQuerySchema,
    responses: { 200: z.string().describe('text/csv'), ...signedInErrors() },
    preSerialized: true,
  },
  everyone: {
    method: 'GET',
    path: '/api/admin/audit',
    access: 'admin',
    summary: "Everyone's trail (administrators).",
    query: auditQuerySchema,
    responses: { 200: auditPageSchema, ...signedInErrors('FORBIDDEN') },
  },
  everyoneCsv: {
    method: 'GET',
    path: '/api/admin/audit/export',
    access: 'admin',
    summary: "Everyone's trail as CSV (administrators).",
    query: auditExportQuerySchema,
    responses: { 200: z.string().describe('text/csv'), ...signedInErrors('FORBIDDEN') },
    preSerialized: true,
  },
});
