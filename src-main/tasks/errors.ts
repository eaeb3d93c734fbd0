// Shorthands for the errors task operations raise.
import { MaestroError } from '../../src-shared/errors';

export const invalid = (field: string, message: string) =>
  new MaestroError('invalid_input', `${field}: ${message}`, [{ path: [field], message }]);

export const notFound = (what: string, id: string) => new MaestroError('not_found', `${what} ${id} does not exist`);
