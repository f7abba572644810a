//! The API's errors: `{"error":{"code","message"}}` with a 4xx status for a
//! client's mistake, 5xx only for the server's own trouble (logged).

use crate::db::DbError;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }
    pub fn bad_request(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }
    pub fn unauthorized(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::UNAUTHORIZED, "unauthorized", message)
    }
    pub fn forbidden(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::FORBIDDEN, "forbidden", message)
    }
    pub fn not_found(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", message)
    }
    pub fn conflict(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::CONFLICT, "conflict", message)
    }
    pub fn internal(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }
}

impl From<DbError> for ApiError {
    fn from(e: DbError) -> Self {
        match e {
            DbError::Conflict => ApiError::conflict("already exists"),
            DbError::Busy => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "busy",
                "the database is busy: try again",
            ),
            DbError::Sql(m) | DbError::Stored(m) => ApiError::internal(m),
        }
    }
}

/// What a client is told of the server's own failure: the cause (a
/// database's message, a stored value that does not read) is logged,
/// never sent.
pub const INTERNAL_MESSAGE: &str = "the server failed to answer this request (the cause is in its log)";

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let message = if self.status == StatusCode::INTERNAL_SERVER_ERROR {
            tracing::error!(code = self.code, "{}", self.message);
            INTERNAL_MESSAGE.to_string()
        } else {
            // 503 (busy) is load, not trouble: under an attack it would
            // flood the log.
            if self.status.is_server_error() && self.status != StatusCode::SERVICE_UNAVAILABLE {
                tracing::error!(code = self.code, "{}", self.message);
            }
            self.message
        };
        let body = serde_json::json!({"error": {"code": self.code, "message": message}});
        (self.status, axum::Json(body)).into_response()
    }
}

/// The API's answers that did not come from a handler's [`ApiError`] (a
/// body refused by the size limit before any handler ran, a handler's
/// raw-body extractor, a panic's 500 from a layer) in the documented JSON
/// form too: `{"error": {"code": "too_large", …}}`, never plain text.
pub async fn json_errors(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let api = req.uri().path().starts_with("/api/");
    let resp = next.run(req).await;
    if !api {
        return resp;
    }
    let json = resp
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if json {
        return resp;
    }
    match resp.status() {
        StatusCode::PAYLOAD_TOO_LARGE => {
            ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "too_large", crate::routes::TOO_LARGE).into_response()
        }
        StatusCode::INTERNAL_SERVER_ERROR => ApiError::internal("an answer of 500 without an error").into_response(),
        _ => resp,
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
