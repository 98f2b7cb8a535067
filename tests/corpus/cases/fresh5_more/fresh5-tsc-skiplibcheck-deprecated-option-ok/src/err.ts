export class HttpError extends Error {
  constructor(public status: number, msg: string) { super(msg); }
}
// @ts-expect-error status must be a number
export const bad = new HttpError('500', 'Internal Server Error');
