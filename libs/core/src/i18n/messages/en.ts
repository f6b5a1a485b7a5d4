/**
 * English message catalog: the source of every human-readable text. Each id is a whole sentence;
 * `{name}` marks a value filled in at run time. Code never assembles sentences from pieces.
 * Every other catalog must have exactly these ids with the same placeholders (checked by tests).
 */
export const en = {
  success: 'success',
  'auth.missing_key': 'Missing API key. Send it as "Authorization: Bearer <API_KEY>".',
  'auth.invalid_key': 'Invalid API key.',
  'auth.unsupported_scheme':
    'Unsupported authorization scheme. Send the key as "Authorization: Bearer <API_KEY>".',
  'auth.key_in_query': 'API keys are never accepted in the URL. Send the key in the Authorization header.',
  'auth.admin_required': 'A valid admin token is required.',
  'auth.console_required': 'A valid console session token is required.',
  'auth.console_session_required': 'A valid console session is required. Sign in again.',
  'auth.console_link_invalid':
    'This sign-in link is invalid, has expired or was already used. Ask for a new link.',
  'auth.csrf_missing': 'This request needs the X-CSRF-Token header of your console session.',
  'auth.csrf_invalid': 'The X-CSRF-Token header does not match your console session.',
  'request.invalid_json': 'The request body is not valid JSON.',
  'request.unsupported_media_type': 'Unsupported content type. Send the body as application/json.',
  'request.body_too_large': 'The request body is too large. The limit is {limit} bytes.',
  'request.not_found': 'The requested resource does not exist.',
  'request.invalid_field': 'Invalid value for field {field}.',
  'request.missing_field': 'Missing required field {field}.',
  'request.unknown_field': 'Unknown field {field}.',
  'request.body_required': 'A JSON object body is required.',
  'request.too_deep': 'The JSON body is nested too deeply: at most {max} levels of objects and arrays.',
  'request.nul_character': 'The field {field} contains a NUL character (U+0000), which is not accepted.',
  'request.ill_formed_text': 'The field {field} is not well-formed Unicode: it contains a lone surrogate.',
  'request.invalid_url':
    'The request URL is not valid: a path segment is too long or not correctly percent-encoded.',
  'request.malformed_http':
    'The request could not be read: its request line or a header is not valid HTTP (for example, a control character in a header value).',
  'request.headers_too_large': 'The request headers are too large.',
  'request.timeout': 'The request was not received completely in time.',
  'query.unknown_parameter': 'Unknown query parameter {name}.',
  'query.repeated_parameter': 'The query parameter {name} is repeated.',
  'query.empty_parameter': 'The query parameter {name} is empty.',
  'query.cursor_filters_changed':
    'The cursor was issued for other filters: {name} differs. Send the filters of the first page again, or start over without a cursor.',
  'server.error': 'Internal server error. Quote the request_id when reporting the problem.',
  'server.unavailable': 'The service is temporarily unavailable. Retry with backoff.',
  'server.draining': 'The service is shutting down. Retry shortly.',
  'rate.limited': 'Too many requests. Retry after {seconds} seconds.',
  'account.not_found': 'Account not found.',
  'key.not_found': 'API key not found.',
  'group.unknown': 'Unknown account group {group}.',
  'language.unsupported':
    'Unsupported language {language}. Supported: en, zh-Hant, ja, ko, de, fr, es, pt-BR, ru.',
  'amount.invalid': 'Invalid amount for {field}: use a positive USD decimal with at most 9 decimal places.',
  'credit.model_required': 'A grant needs the model it pays for (model).',
  'credit.model_only_for_grants':
    'Only a grant is limited to a model; omit model for wallet and promo credit.',
  'credit.expiry_in_past': 'The expiry time must be in the future.',
  'model.not_found':
    'Model {model} does not exist. Use an exact id from the model list, such as publisher/model or publisher/model/chat.',
  'model.search_too_long': 'The search text is too long: at most {max} characters.',
  'input.not_object': 'The field {field} must be a JSON object.',
  'input.wrong_type': 'The field {field} must be of type {type}.',
  'input.not_allowed_value': 'The field {field} must be one of: {allowed}.',
  'input.too_small': 'The field {field} must be at least {limit}.',
  'input.too_large': 'The field {field} must be at most {limit}.',
  'input.not_above': 'The field {field} must be greater than {limit}.',
  'input.not_below': 'The field {field} must be less than {limit}.',
  'input.not_multiple': 'The field {field} must be a multiple of {limit}.',
  'input.too_short': 'The field {field} must have at least {limit} characters.',
  'input.too_long': 'The field {field} must have at most {limit} characters.',
  'input.too_few_items': 'The field {field} must have at least {limit} items.',
  'input.too_many_items': 'The field {field} must have at most {limit} items.',
  'input.bad_format': 'The field {field} does not have the expected format.',
  'input.not_media_uri':
    'The field {field} must be the service:// URI of an uploaded file (service://files/fil_...) or an https:// URL.',
  'input.media_not_found':
    'The field {field} does not name a ready file of this account. Upload and commit the file, then use the uri the commit answered.',
  'input.image_url_invalid':
    'The image at {field} cannot be used ({reason}). Send a data: URL of a PNG, JPEG, WebP or GIF image of at most 10 MiB (base64), an https URL on port 443 without user info of at most 2048 characters, or the service:// URI of an uploaded image of this account.',
  'input.media_wrong_kind': 'The field {field} takes {kind} files; the file it names is {contentType}.',
  'balance.insufficient': 'Insufficient balance: the funds available do not cover this request.',
  'spend_cap.reached': "This API key's daily spend cap does not cover this request.",
  'quote.expired_or_changed': 'The quote has expired or does not match this request. Request a new quote.',
  'quote.incomplete': 'Send quoteId and expectedCost together.',
  'idempotency.conflict':
    'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
  'idempotency.other_api_key': 'This Idempotency-Key was already used by another API key of this account.',
  'idempotency.in_progress':
    'A request with this Idempotency-Key is still being processed. Retry with the same key and payload.',
  'idempotency.invalid_key': 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.',
  'callback.invalid': 'Invalid callback URL',
  'retention.invalid': 'X-Service-Retention must be a whole number of seconds greater than 0.',
  'model.unavailable': 'The model {model} is not available right now. Retry later or choose another model.',
  'task.not_found': 'Task not found.',
  'task.error.upstream_failed':
    'The model provider failed to produce a result. The hold was released; you can retry the task.',
  'task.error.content_rejected': 'The request was refused by the content policy. Nothing was charged.',
  'task.error.internal_error':
    'The task failed because of an internal error. The hold was released; you can retry the task.',
  'task.error.service_interrupted':
    'The service stopped while it was answering (a restart or a crash). Nothing was charged and the hold was released; you can send the request again, with the same Idempotency-Key.',
  'task.error.input_unavailable':
    'A media file of the input could not be read: the file is no longer available, or its URL was refused, could not be reached, answered with an error or is too large. Nothing was charged.',
  'task.error.input_invalid':
    'A media file of the input is not a supported file of the kind its field takes. Nothing was charged.',
  'task.not_retryable': 'Only a failed, expired or canceled task can be retried.',
  'task.purged_not_retryable': 'A purged task cannot be retried: its prompt no longer exists.',
  'task.not_terminal': 'The task is still queued or running. Wait for a terminal state.',
  'download.not_finished': 'The task is still {state}: its outputs can be downloaded once it has succeeded.',
  'download.not_succeeded': 'The task ended {state}: it has no outputs to download.',
  'download.outputs_gone': 'The outputs of this task no longer exist: it was purged, or its retention ended.',
  'download.no_outputs': 'This task has no output files.',
  'download.no_such_output':
    'This task has no output with that key. The keys are in output.assets of recordInfo.',
  'download.output_unavailable': 'This output could not be stored: there is no file to download.',
  'download.output_pending': 'This output is not ready yet. Ask for a download URL again later.',
  'query.range_too_long': 'The date range is longer than {max} days.',
  'query.invalid_range': 'The date from must be earlier than the date to.',
  'query.timeout': 'The query took longer than its time budget. Try a shorter date range.',
  'webhook.endpoint_limit': 'An account can hold at most {limit} webhook endpoints.',
  'idempotency.required':
    'This request needs an Idempotency-Key header: 1 to 255 visible ASCII characters, new for each new request.',
  'asset.not_found': 'Asset not found.',
  'asset.file_not_ready':
    'The field {field} must be the service://files/... URI of a committed file of this account, as the commit of an upload returned it.',
  'asset.quota_count':
    'The asset library is full: its plan allows {limit} assets. Delete assets or ask for a larger plan.',
  'asset.quota_bytes':
    'Saving this file ({bytes} bytes) would exceed the asset library limit of {limit} bytes ({used} bytes used). Delete assets or ask for a larger plan.',
  'asset.replay_deleted':
    'This Idempotency-Key saved asset {assetId}, which has since been deleted. Use a new key to save the file again.',
  'entity.not_found': 'Character not found.',
  'compat.unsupported_parameter': 'The parameter {param} is not supported.',
  'compat.model_unsupported_parameter': 'The model {model} does not support the parameter {param}.',
  'compat.model_unsupported_value':
    'The model {model} does not support the value {value} of the parameter {param}.',
  'compat.model_no_images':
    'The model {model} does not accept images. Remove the image at {param} or choose a model that accepts images.',
  'chat_completions.max_tokens_conflict':
    'max_tokens and max_completion_tokens have different values. Send only one of them.',
  'chat_completions.n_unsupported': 'Only one choice is generated per request: n must be 1.',
  'chat_completions.reasoning_conflict':
    'reasoning and reasoning_effort ask for different reasoning levels. Send only one of them.',
  'chat_completions.stream_options_without_stream': 'stream_options is only allowed when stream is true.',
  'compat.unsupported_type': 'The type {type} at {param} is not supported.',
  'responses.previous_response_id':
    'previous_response_id is not supported. Send the full conversation in input and return function results as function_call_output items with the matching call_id.',
  'generate_content.unsupported_parameter': 'The parameter {param} is not supported.',
  'generate_content.roles_not_alternating':
    'The contents must alternate between the roles user and model: {param} repeats the previous role.',
  'generate_content.unmatched_function_response':
    'The functionResponse {param} does not answer a functionCall of the previous model turn with the same name.',
  'generate_content.unsupported_media':
    'The media type {mimeType} of {param} is not supported. Send images as JPEG, PNG, WebP or GIF.',
  'generate_content.file_uri_not_https': 'The fileUri {param} must be an https URL.',
  'generate_content.conflicting_fields': 'Send only one of {first} and {second}.',
  'generate_content.schema_needs_json': 'A response schema needs responseMimeType application/json.',
  'stream.not_text':
    'The model {model} is not a text model: /api/v1/jobs/stream and the compatibility endpoints serve text models only. Use createTask.',
  'stream.replayed':
    'This Idempotency-Key already started a stream for task {taskId}. Its response cannot be sent again and nothing is charged twice: read the task with recordInfo.',
  'compat.model_not_found':
    'The model {model} does not exist. Model ids look like publisher/model/chat; the closest chat model is {closest}.',
  'compat.model_not_found_none':
    'The model {model} does not exist. Model ids look like publisher/model/chat; list them with GET /v1/models?modality=text.',
  'compat.not_chat_model': 'The model {model} is not a chat model: use it with POST /api/v1/jobs/createTask.',
  'compat.not_video_model':
    'The model {model} is not a video model: /v1/videos makes tasks of video models only.',
  'compat.video_not_ready': 'The video {id} has no content yet (status {status}).',
  'media.unsupported_type':
    'The content type {contentType} is not supported. Upload a JPEG, PNG, WebP or GIF image, an MP4 or WebM video, or MP3 or WAV audio.',
  'media.too_large': 'The file is too large: a {contentType} file may have at most {limit} bytes.',
  'media.empty': 'The file is empty. Nothing was kept.',
  'media.pending':
    'The upload of {fileId} is not complete yet. Send every byte to the upload URL with its headers, then commit again.',
  'media.size_mismatch':
    'The stored file has {actual} bytes, but the upload ticket declared {expected}. Nothing was kept.',
  'media.type_mismatch': 'The file is not {declared}: its content is {detected}. Nothing was kept.',
  'media.type_unknown':
    'The file is not {declared}: its content is not a supported media type. Nothing was kept.',
  'media.damaged': 'The file cannot be read as {contentType}: it is damaged or incomplete. Nothing was kept.',
  'media.trailing_data':
    'The file holds more data after the end of its {contentType} content, for example another file appended to it. Nothing was kept.',
  'media.no_duration': 'The duration of the {contentType} file cannot be measured. Nothing was kept.',
  'media.too_long':
    'The media lasts {seconds} seconds; at most {max} seconds are accepted. Nothing was kept.',
  'import.invalid_url':
    'The import URL must be an https URL on port 443, without user name or password, whose host resolves to public addresses only.',
  'import.redirect_refused':
    'The import URL redirected to a location that is not allowed (https on port 443, public addresses only), or redirected too often. Nothing was imported.',
  'import.http_status': 'The import URL answered HTTP {status}. Nothing was imported.',
  'import.unreachable':
    'The import URL could not be fetched: the connection failed or timed out. Nothing was imported.',
  'import.too_large': 'The file at the import URL is larger than {limit} bytes. Nothing was imported.',
  'import.unsupported_content':
    'The file at the import URL is not a supported media type: JPEG, PNG, WebP or GIF images, MP4 or WebM video, MP3 or WAV audio. Nothing was imported.',
  'import.deadline':
    'The import URL did not send the whole file within {seconds} seconds. Nothing was imported.',
  'import.too_many':
    'This API key already has {limit} imports in progress, the most it may have at once. Retry after {seconds} seconds.',
  'import.client_gone':
    'The import was stopped because the client closed the connection. Nothing was imported.',
  'request.invalid_utf8':
    'The request body is not valid UTF-8: the byte at offset {offset} is not part of a UTF-8 character. Send JSON encoded as UTF-8.',
  'media.no_track':
    'The {contentType} file holds no video or audio track that lasts: there is nothing in it to play. Nothing was kept.',
  'media.inconsistent_header':
    'The file cannot be decoded as {contentType}: its header gives {field} = {value}, where {expected} is needed. Nothing was kept.',
  'media.too_many_pixels':
    'The image is {width} x {height} pixels, {pixels} pixels in all: more than the {max} pixels accepted, so it is not decoded. Nothing was kept.',
  'group.invalid_multiplier':
    "The group multiplier must be a decimal from {min} to {max} with at most {decimals} decimal places: the group's prices are the standard prices times it, and must stay above zero. Nothing was changed.",
  'credit.model_unknown':
    'The model {model} of the grant (model) does not exist in the catalog. Use an exact id from the model list, such as publisher/model or publisher/model/chat. Nothing was added.',
} as const;

export type MessageId = keyof typeof en;
export type MessageCatalog = { readonly [K in MessageId]: string };
