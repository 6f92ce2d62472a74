// The browser's one way to the API: every page calls api.get/post/del with a path
// relative to /api/v3 and gets the envelope's data back, or an ApiError saying why not.

export const BASE = "/api/v3";
const TOKEN_HEADER = "X-Ledpanel-Token";

// Why a call failed: error_code is the server's own when it sent one, else ours.
export class ApiError extends Error {
  constructor(errorCode, message, { status = null, details = null, body = null } = {}) {
    super(message);
    this.name = "ApiError";
    this.error_code = errorCode;
    this.status = status;
    this.details = details;
    this.body = body;
  }
}

// A plain path under /api/v3: "/x/y?q", no "//" start, no backslash, no "." or ".."
// segments (raw or percent-encoded), no whitespace or control characters.
export function checkPath(path) {
  if (typeof path !== "string" || !path.startsWith("/") || path.startsWith("//")) return false;
  if (/[\\\s\u0000-\u001f\u007f]/.test(path)) return false;
  const route = path.split(/[?#]/, 1)[0];
  for (const segment of route.split("/").slice(1)) {
    let plain;
    try { plain = decodeURIComponent(segment); } catch { return false; }
    if (plain === "." || plain === ".." || /[\\/]/.test(plain)) return false;
  }
  return true;
}

// "/plugins/{id}/x" with the id URL-encoded (an id is never trusted to be path-safe).
export function pluginPath(template, pluginId) {
  return template.replace("{id}", encodeURIComponent(String(pluginId)));
}

// The token the panel's own pages carry; sent with every call, so the web service knows
// a request comes from its own page (the first password, a backup's secrets).
export function pageToken() {
  const meta = globalThis.document?.querySelector?.('meta[name="ledpanel-token"]');
  return meta ? meta.content : null;
}

async function request(method, path, body) {
  if (!checkPath(path)) {
    throw new ApiError("INVALID_ENDPOINT", `not a plain API path: ${JSON.stringify(path)}`);
  }
  const init = { method, headers: { Accept: "application/json" } };
  const token = pageToken();
  if (token) init.headers[TOKEN_HEADER] = token;
  if (body !== undefined) {
    if (body instanceof FormData || body instanceof URLSearchParams || typeof body === "string") {
      init.body = body;  // a form or text: the web service asks for our page token
    } else {
      init.body = JSON.stringify(body);
      init.headers["Content-Type"] = "application/json";
    }
  }
  let response;
  try {
    response = await fetch(BASE + path, init);
  } catch (err) {
    throw new ApiError("NETWORK_ERROR", `the web service could not be reached: ${err?.message || err}`);
  }
  let envelope = null;
  try { envelope = await response.json(); } catch { envelope = null; }
  const structured = envelope && typeof envelope === "object" && !Array.isArray(envelope);
  if (structured && typeof envelope.error_code === "string" && envelope.error_code) {
    throw new ApiError(envelope.error_code, envelope.message || envelope.error_code,
                       { status: response.status, details: envelope.details ?? null, body: envelope });
  }
  if (!response.ok || !structured) {
    const what = structured ? "without an error code" : "that is not JSON";
    throw new ApiError("API_ERROR", `HTTP ${response.status} ${what} from ${method} ${path}`,
                       { status: response.status, body: envelope });
  }
  return envelope;
}

// A failure worth asking again: the request never got an answer (NETWORK_ERROR), a
// gateway or overloaded server answered 502/503/504, or the panel's rate limit answered
// 429 RATE_LIMITED (asked again once its Retry-After has passed). Any other refusal is
// never retried.
export const RETRY_STATUSES = [502, 503, 504];
export function isRetryable(err) {
  if (!(err instanceof ApiError)) return false;
  return err.error_code === "NETWORK_ERROR" || RETRY_STATUSES.includes(err.status)
    || limitedFor(err) !== null;
}

// The milliseconds a 429 RATE_LIMITED answer says to wait (details.retry_after, at most
// two minutes), or null for any other failure.
export function limitedFor(err) {
  const after = err?.details?.retry_after;
  if (err?.status !== 429 || err.error_code !== "RATE_LIMITED" || typeof after !== "number") return null;
  return 1000 * Math.min(Math.max(after, 0), 120);
}

export const RETRY_DELAYS_MS = [1000, 2000, 4000, 8000, 16000];
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Run fn() and, while it fails retryably, run it again after each delay in turn: at most
// `attempts` more tries (so 1 + attempts in all). onRetry(err, attempt, delayMs) is told
// before each wait. The last failure, or any other one, is thrown as it came.
export async function withRetry(fn, { attempts = 5, delays = RETRY_DELAYS_MS, sleep = pause,
                                      retryable = isRetryable, onRetry = null } = {}) {
  const most = Math.max(0, Math.min(Number(attempts) || 0, 20));
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (attempt >= most || !retryable(err)) throw err;
      const wait = limitedFor(err) ?? (delays.length ? delays[Math.min(attempt, delays.length - 1)] : 0);
      if (onRetry) onRetry(err, attempt + 1, wait);
      await sleep(wait);
    }
  }
}

// Each returns the whole envelope ({status, data, message}); errors throw ApiError.
export const api = {
  get: (path) => request("GET", path),
  post: (path, body = {}) => request("POST", path, body),
  del: (path, body) => request("DELETE", path, body),
  withRetry,
  isRetryable,
  pluginPath,
  checkPath,
};

export default api;
