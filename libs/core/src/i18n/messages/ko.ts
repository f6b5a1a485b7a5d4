import type { MessageCatalog } from './en';

export const ko: MessageCatalog = {
  success: '성공',
  'auth.missing_key': 'API 키가 없습니다. "Authorization: Bearer <API_KEY>" 형식으로 보내 주세요.',
  'auth.invalid_key': '유효하지 않은 API 키입니다.',
  'auth.unsupported_scheme':
    '지원되지 않는 인증 방식입니다. 키를 "Authorization: Bearer <API_KEY>" 형식으로 보내 주세요.',
  'auth.key_in_query': 'API 키는 URL로 전달할 수 없습니다. 키를 Authorization 헤더에 담아 보내 주세요.',
  'auth.admin_required': '유효한 관리자 토큰이 필요합니다.',
  'auth.console_required': '유효한 콘솔 세션 토큰이 필요합니다.',
  'auth.console_session_required': '유효한 콘솔 세션이 필요합니다. 다시 로그인하세요.',
  'auth.console_link_invalid':
    '이 로그인 링크는 유효하지 않거나 만료되었거나 이미 사용되었습니다. 새 링크를 요청하세요.',
  'auth.csrf_missing': '이 요청에는 콘솔 세션의 X-CSRF-Token 헤더가 필요합니다.',
  'auth.csrf_invalid': 'X-CSRF-Token 헤더가 콘솔 세션과 일치하지 않습니다.',
  'request.invalid_json': '요청 본문이 유효한 JSON이 아닙니다.',
  'request.unsupported_media_type':
    '지원되지 않는 콘텐츠 유형입니다. 본문을 application/json 형식으로 보내 주세요.',
  'request.body_too_large': '요청 본문이 너무 큽니다. 최대 크기는 {limit}바이트입니다.',
  'request.not_found': '요청한 리소스가 존재하지 않습니다.',
  'request.invalid_field': '{field} 필드의 값이 유효하지 않습니다.',
  'request.missing_field': '필수 필드 {field}이(가) 누락되었습니다.',
  'request.unknown_field': '알 수 없는 필드 {field}입니다.',
  'request.body_required': 'JSON 객체 형식의 요청 본문이 필요합니다.',
  'request.too_deep':
    'JSON 본문의 중첩이 너무 깊습니다. 객체와 배열은 최대 {max}단계까지 중첩할 수 있습니다.',
  'request.nul_character':
    '필드 {field}에 NUL 문자(U+0000)가 포함되어 있습니다. NUL 문자는 허용되지 않습니다.',
  'request.ill_formed_text':
    '필드 {field}은(는) 올바른 형식의 유니코드가 아닙니다. 짝이 없는 서로게이트가 포함되어 있습니다.',
  'request.invalid_url':
    '요청 URL이 올바르지 않습니다. 경로 세그먼트가 너무 길거나 퍼센트 인코딩이 잘못되었습니다.',
  'request.malformed_http':
    '요청을 읽을 수 없습니다. 요청 줄 또는 헤더가 올바른 HTTP가 아닙니다(예: 헤더 값에 제어 문자가 포함됨).',
  'request.headers_too_large': '요청 헤더가 너무 큽니다.',
  'request.timeout': '요청이 제시간에 모두 수신되지 않았습니다.',
  'query.unknown_parameter': '알 수 없는 쿼리 매개변수 {name}입니다.',
  'query.repeated_parameter': '쿼리 매개변수 {name}이(가) 중복되었습니다.',
  'query.empty_parameter': '쿼리 매개변수 {name}이(가) 비어 있습니다.',
  'query.cursor_filters_changed':
    '이 커서는 다른 필터에 대해 발급되었습니다({name}이(가) 다름). 첫 페이지와 같은 필터를 보내거나 커서 없이 처음부터 다시 요청하세요.',
  'server.error': '내부 서버 오류가 발생했습니다. 문제를 신고할 때 request_id를 함께 알려 주세요.',
  'server.unavailable': '일시적으로 서비스를 사용할 수 없습니다. 간격을 점차 늘려 가며 다시 시도해 주세요.',
  'server.draining': '서비스가 종료되는 중입니다. 잠시 후 다시 시도해 주세요.',
  'rate.limited': '요청이 너무 많습니다. {seconds}초 후에 다시 시도해 주세요.',
  'account.not_found': '계정을 찾을 수 없습니다.',
  'key.not_found': 'API 키를 찾을 수 없습니다.',
  'group.unknown': '알 수 없는 계정 그룹 {group}입니다.',
  'language.unsupported':
    '지원되지 않는 언어 {language}입니다. 지원 언어: en, zh-Hant, ja, ko, de, fr, es, pt-BR, ru.',
  'amount.invalid':
    '{field}의 금액이 유효하지 않습니다. 소수점 이하 최대 9자리의 양수 USD 금액을 사용해 주세요.',
  'credit.model_required': '지급 크레딧에는 적용 대상 모델 (model)을 지정해야 합니다.',
  'credit.model_only_for_grants':
    '모델로 제한할 수 있는 것은 지급 크레딧뿐입니다. 지갑 및 프로모션 크레딧에는 model을 생략해 주세요.',
  'credit.expiry_in_past': '만료 시간은 미래 시점이어야 합니다.',
  'model.not_found':
    '모델 {model}이(가) 존재하지 않습니다. 모델 목록의 정확한 ID(예: publisher/model 또는 publisher/model/chat)를 사용하세요.',
  'model.search_too_long': '검색어가 너무 깁니다. 최대 {max}자까지 입력할 수 있습니다.',
  'input.not_object': '{field} 필드는 JSON 객체여야 합니다.',
  'input.wrong_type': '{field} 필드의 유형은 {type}이어야 합니다.',
  'input.not_allowed_value': '{field} 필드는 다음 중 하나여야 합니다: {allowed}.',
  'input.too_small': '{field} 필드는 {limit} 이상이어야 합니다.',
  'input.too_large': '{field} 필드는 {limit} 이하여야 합니다.',
  'input.not_above': '{field} 필드는 {limit}보다 커야 합니다.',
  'input.not_below': '{field} 필드는 {limit}보다 작아야 합니다.',
  'input.not_multiple': '{field} 필드는 {limit}의 배수여야 합니다.',
  'input.too_short': '{field} 필드는 최소 {limit}자여야 합니다.',
  'input.too_long': '{field} 필드는 최대 {limit}자까지 가능합니다.',
  'input.too_few_items': '{field} 필드에는 최소 {limit}개의 항목이 필요합니다.',
  'input.too_many_items': '{field} 필드에는 최대 {limit}개의 항목만 허용됩니다.',
  'input.bad_format': '{field} 필드의 형식이 올바르지 않습니다.',
  'input.not_media_uri':
    '{field} 필드는 업로드한 파일의 service:// URI(service://files/fil_...) 또는 https:// URL이어야 합니다.',
  'input.media_not_found':
    '{field} 필드가 이 계정의 준비된 파일을 가리키지 않습니다. 파일을 업로드하고 커밋한 뒤 커밋 응답의 uri를 사용하세요.',
  'input.image_url_invalid':
    '{field}의 이미지를 사용할 수 없습니다({reason}). 10 MiB 이하 PNG, JPEG, WebP, GIF 이미지의 data: URL(base64), 사용자 정보가 없는 포트 443의 2048자 이하 https URL, 또는 이 계정이 업로드한 이미지의 service:// URI를 보내세요.',
  'input.media_wrong_kind': '{field} 필드는 {kind} 파일을 받지만, 지정한 파일은 {contentType}입니다.',
  'balance.insufficient': '잔액이 부족합니다. 사용 가능한 자금으로 이 요청을 처리할 수 없습니다.',
  'spend_cap.reached': '이 API 키의 일일 지출 한도로는 이 요청을 처리할 수 없습니다.',
  'quote.expired_or_changed': '견적이 만료되었거나 이 요청과 일치하지 않습니다. 새 견적을 요청하세요.',
  'quote.incomplete': 'quoteId와 expectedCost를 함께 보내세요.',
  'idempotency.conflict':
    '이 Idempotency-Key는 이미 다른 요청에 사용되었습니다. 새 요청에는 새 키를 사용하세요.',
  'idempotency.other_api_key': '이 Idempotency-Key는 이미 이 계정의 다른 API 키에서 사용되었습니다.',
  'idempotency.in_progress':
    '이 Idempotency-Key의 요청이 아직 처리 중입니다. 같은 키와 내용으로 다시 시도하세요.',
  'idempotency.invalid_key': 'Idempotency-Key 헤더는 1~255자의 표시 가능한 ASCII 문자여야 합니다.',
  'callback.invalid': '잘못된 콜백 URL',
  'retention.invalid': 'X-Service-Retention은 0보다 큰 정수 초여야 합니다.',
  'model.unavailable':
    '모델 {model}은(는) 지금 사용할 수 없습니다. 나중에 다시 시도하거나 다른 모델을 선택하세요.',
  'task.not_found': '작업을 찾을 수 없습니다.',
  'task.error.upstream_failed':
    '모델 제공자가 결과를 생성하지 못했습니다. 보류 금액은 해제되었으며 작업을 다시 시도할 수 있습니다.',
  'task.error.content_rejected': '요청이 콘텐츠 정책에 의해 거부되었습니다. 요금은 청구되지 않았습니다.',
  'task.error.internal_error':
    '내부 오류로 작업이 실패했습니다. 보류 금액은 해제되었으며 작업을 다시 시도할 수 있습니다.',
  'task.error.service_interrupted':
    '응답하는 도중 서비스가 중지되었습니다(재시작 또는 장애). 요금은 청구되지 않았고 보류 금액은 해제되었습니다. 같은 Idempotency-Key로 요청을 다시 보낼 수 있습니다.',
  'task.error.input_unavailable':
    '입력의 미디어 파일을 읽을 수 없습니다. 파일을 더 이상 사용할 수 없거나, URL이 거부되었거나, 연결할 수 없거나, 오류로 응답했거나, 너무 큽니다. 요금은 청구되지 않았습니다.',
  'task.error.input_invalid':
    '입력의 미디어 파일이 해당 필드가 받는 종류의 지원되는 파일이 아닙니다. 요금은 청구되지 않았습니다.',
  'task.not_retryable': '실패, 만료 또는 취소된 작업만 다시 시도할 수 있습니다.',
  'task.purged_not_retryable':
    '영구 삭제(purge)된 작업은 다시 시도할 수 없습니다. 프롬프트가 더 이상 존재하지 않습니다.',
  'task.not_terminal': '작업이 아직 대기 중이거나 실행 중입니다. 종료 상태가 될 때까지 기다리세요.',
  'download.not_finished': '작업이 아직 {state} 상태입니다. 성공하면 출력을 다운로드할 수 있습니다.',
  'download.not_succeeded': '작업이 {state} 상태로 끝났습니다. 다운로드할 출력이 없습니다.',
  'download.outputs_gone':
    '이 작업의 출력은 더 이상 존재하지 않습니다. 삭제(purge)되었거나 보존 기간이 끝났습니다.',
  'download.no_outputs': '이 작업에는 출력 파일이 없습니다.',
  'download.no_such_output':
    '이 작업에는 해당 키의 출력이 없습니다. 키는 recordInfo의 output.assets에 있습니다.',
  'download.output_unavailable': '이 출력은 저장되지 못했습니다. 다운로드할 파일이 없습니다.',
  'download.output_pending': '이 출력은 아직 준비되지 않았습니다. 나중에 다운로드 URL을 다시 요청하세요.',
  'query.range_too_long': '날짜 범위가 {max}일을 초과합니다.',
  'query.invalid_range': 'from 날짜는 to 날짜보다 앞서야 합니다.',
  'query.timeout': '쿼리가 시간 예산을 초과했습니다. 더 짧은 날짜 범위를 사용해 보세요.',
  'webhook.endpoint_limit': '계정당 웹훅 엔드포인트는 최대 {limit}개까지 등록할 수 있습니다.',
  'idempotency.required':
    '이 요청에는 Idempotency-Key 헤더가 필요합니다. 표시 가능한 ASCII 문자 1~255자이며, 새 요청마다 새 값을 사용하세요.',
  'asset.not_found': '에셋을 찾을 수 없습니다.',
  'asset.file_not_ready':
    '{field} 필드는 이 계정에서 커밋된 파일의 service://files/... URI(업로드 커밋이 반환한 값)여야 합니다.',
  'asset.quota_count':
    '에셋 라이브러리가 가득 찼습니다. 요금제에서 허용하는 에셋은 {limit}개입니다. 에셋을 삭제하거나 더 큰 요금제를 요청하세요.',
  'asset.quota_bytes':
    '이 파일({bytes}바이트)을 저장하면 에셋 라이브러리 한도 {limit}바이트를 초과합니다(사용 중 {used}바이트). 에셋을 삭제하거나 더 큰 요금제를 요청하세요.',
  'asset.replay_deleted':
    '이 Idempotency-Key로 저장된 에셋 {assetId}은(는) 이후 삭제되었습니다. 파일을 다시 저장하려면 새 키를 사용하세요.',
  'entity.not_found': '캐릭터를 찾을 수 없습니다.',
  'compat.unsupported_parameter': '{param} 매개변수는 지원되지 않습니다.',
  'compat.model_unsupported_parameter': '{model} 모델은 {param} 매개변수를 지원하지 않습니다.',
  'compat.model_unsupported_value': '{model} 모델은 {param} 매개변수의 값 {value}을(를) 지원하지 않습니다.',
  'compat.model_no_images':
    '{model} 모델은 이미지를 받지 않습니다. {param}의 이미지를 제거하거나 이미지를 받는 모델을 선택하세요.',
  'chat_completions.max_tokens_conflict':
    'max_tokens와 max_completion_tokens의 값이 다릅니다. 둘 중 하나만 보내세요.',
  'chat_completions.n_unsupported': '요청당 하나의 선택지만 생성됩니다. n은 1이어야 합니다.',
  'chat_completions.reasoning_conflict':
    'reasoning과 reasoning_effort가 서로 다른 추론 수준을 요청합니다. 둘 중 하나만 보내세요.',
  'chat_completions.stream_options_without_stream': 'stream_options는 stream이 true일 때만 허용됩니다.',
  'compat.unsupported_type': '{param}의 유형 {type}은(는) 지원되지 않습니다.',
  'responses.previous_response_id':
    'previous_response_id는 지원되지 않습니다. 전체 대화를 input으로 보내고, 함수 결과는 일치하는 call_id를 가진 function_call_output 항목으로 반환하세요.',
  'generate_content.unsupported_parameter': '매개변수 {param}은(는) 지원되지 않습니다.',
  'generate_content.roles_not_alternating':
    'contents는 user와 model 역할이 번갈아 나와야 합니다. {param}이(가) 이전 역할을 반복합니다.',
  'generate_content.unmatched_function_response':
    'functionResponse {param}에 대응하는 같은 이름의 functionCall이 이전 model 턴에 없습니다.',
  'generate_content.unsupported_media':
    '{param}의 미디어 유형 {mimeType}은(는) 지원되지 않습니다. 이미지는 JPEG, PNG, WebP 또는 GIF로 보내세요.',
  'generate_content.file_uri_not_https': 'fileUri {param}은(는) https URL이어야 합니다.',
  'generate_content.conflicting_fields': '{first}와(과) {second} 중 하나만 보내세요.',
  'generate_content.schema_needs_json': '응답 스키마에는 responseMimeType application/json이 필요합니다.',
  'stream.not_text':
    '{model} 모델은 텍스트 모델이 아닙니다. /api/v1/jobs/stream과 호환 엔드포인트는 텍스트 모델만 제공합니다. createTask를 사용하세요.',
  'stream.replayed':
    '이 Idempotency-Key는 이미 작업 {taskId}의 스트림을 시작했습니다. 그 응답은 다시 보낼 수 없으며 이중으로 청구되지 않습니다. recordInfo로 작업을 조회하세요.',
  'compat.model_not_found':
    '{model} 모델이 존재하지 않습니다. 모델 ID는 publisher/model/chat 형식이며, 가장 가까운 채팅 모델은 {closest}입니다.',
  'compat.model_not_found_none':
    '{model} 모델이 존재하지 않습니다. 모델 ID는 publisher/model/chat 형식입니다. GET /v1/models?modality=text로 목록을 확인하세요.',
  'compat.not_chat_model': '{model} 모델은 채팅 모델이 아닙니다. POST /api/v1/jobs/createTask로 사용하세요.',
  'compat.not_video_model':
    '{model} 모델은 동영상 모델이 아닙니다. /v1/videos는 동영상 모델의 작업만 만듭니다.',
  'compat.video_not_ready': '동영상 {id}에는 아직 콘텐츠가 없습니다(상태 {status}).',
  'media.unsupported_type':
    '콘텐츠 유형 {contentType}은(는) 지원되지 않습니다. JPEG, PNG, WebP, GIF 이미지, MP4 또는 WebM 동영상, MP3 또는 WAV 오디오를 업로드하세요.',
  'media.too_large': '파일이 너무 큽니다. {contentType} 파일은 최대 {limit}바이트입니다.',
  'media.empty': '파일이 비어 있습니다. 아무것도 보관되지 않았습니다.',
  'media.pending':
    '{fileId}의 업로드가 아직 완료되지 않았습니다. 모든 바이트를 해당 헤더와 함께 업로드 URL로 보낸 후 다시 커밋하세요.',
  'media.size_mismatch':
    '저장된 파일은 {actual}바이트이지만 업로드 티켓에는 {expected}바이트로 선언되었습니다. 아무것도 보관되지 않았습니다.',
  'media.type_mismatch':
    '파일이 {declared}이(가) 아닙니다. 내용은 {detected}입니다. 아무것도 보관되지 않았습니다.',
  'media.type_unknown':
    '파일이 {declared}이(가) 아닙니다. 내용이 지원되는 미디어 유형이 아닙니다. 아무것도 보관되지 않았습니다.',
  'media.damaged':
    '파일을 {contentType}(으)로 읽을 수 없습니다. 손상되었거나 불완전합니다. 아무것도 보관되지 않았습니다.',
  'media.trailing_data':
    '파일의 {contentType} 콘텐츠가 끝난 뒤에 추가로 덧붙은 다른 파일 같은 데이터가 있습니다. 아무것도 보관되지 않았습니다.',
  'media.no_duration': '{contentType} 파일의 재생 시간을 측정할 수 없습니다. 아무것도 보관되지 않았습니다.',
  'media.too_long':
    '미디어 길이가 {seconds}초입니다. 최대 {max}초까지 허용됩니다. 아무것도 보관되지 않았습니다.',
  'import.invalid_url':
    '가져오기 URL은 사용자 이름이나 비밀번호가 없고 호스트가 공용 주소로만 확인되는 포트 443의 https URL이어야 합니다.',
  'import.redirect_refused':
    '가져오기 URL이 허용되지 않는 위치(포트 443의 https, 공용 주소만)로 리디렉션했거나 너무 많이 리디렉션했습니다. 아무것도 가져오지 않았습니다.',
  'import.http_status': '가져오기 URL이 HTTP {status}(으)로 응답했습니다. 아무것도 가져오지 않았습니다.',
  'import.unreachable':
    '가져오기 URL을 가져올 수 없습니다. 연결에 실패했거나 시간이 초과되었습니다. 아무것도 가져오지 않았습니다.',
  'import.too_large': '가져오기 URL의 파일이 {limit}바이트보다 큽니다. 아무것도 가져오지 않았습니다.',
  'import.unsupported_content':
    '가져오기 URL의 파일이 지원되는 미디어 유형이 아닙니다: JPEG, PNG, WebP, GIF 이미지, MP4 또는 WebM 동영상, MP3 또는 WAV 오디오. 아무것도 가져오지 않았습니다.',
  'import.deadline':
    '가져오기 URL이 {seconds}초 안에 파일 전체를 보내지 않았습니다. 아무것도 가져오지 않았습니다.',
  'import.too_many':
    '이 API 키에는 이미 동시에 허용되는 최대치인 {limit}개의 가져오기가 진행 중입니다. {seconds}초 후에 다시 시도하세요.',
  'import.client_gone': '클라이언트가 연결을 닫아 가져오기를 중단했습니다. 아무것도 가져오지 않았습니다.',
  'request.invalid_utf8':
    '요청 본문이 올바른 UTF-8이 아닙니다. 오프셋 {offset}의 바이트는 UTF-8 문자의 일부가 아닙니다. JSON을 UTF-8로 인코딩하여 보내세요.',
  'media.no_track':
    '{contentType} 파일에 길이가 있는 동영상 또는 오디오 트랙이 없어 재생할 내용이 없습니다. 아무것도 보관하지 않았습니다.',
  'media.inconsistent_header':
    '파일을 {contentType}(으)로 디코딩할 수 없습니다. 헤더의 {field} 값이 {value}이지만 {expected}이어야 합니다. 아무것도 보관하지 않았습니다.',
  'media.too_many_pixels':
    '이미지가 {width} x {height} 픽셀, 모두 {pixels} 픽셀로 허용되는 {max} 픽셀을 넘으므로 디코딩하지 않습니다. 아무것도 보관하지 않았습니다.',
  'group.invalid_multiplier':
    '그룹 배수는 소수점 이하 {decimals}자리 이내의 {min}부터 {max}까지의 소수여야 합니다. 그룹 가격은 표준 가격에 이 값을 곱한 것이며 0보다 커야 합니다. 아무것도 변경하지 않았습니다.',
  'credit.model_unknown':
    '부여할 모델 {model}(model)이(가) 카탈로그에 없습니다. publisher/model 또는 publisher/model/chat처럼 모델 목록의 정확한 ID를 사용하세요. 아무것도 추가하지 않았습니다.',
};
