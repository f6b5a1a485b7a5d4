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
  'request.invalid_json': '요청 본문이 유효한 JSON이 아닙니다.',
  'request.unsupported_media_type':
    '지원되지 않는 콘텐츠 유형입니다. 본문을 application/json 형식으로 보내 주세요.',
  'request.body_too_large': '요청 본문이 너무 큽니다. 최대 크기는 {limit}바이트입니다.',
  'request.not_found': '요청한 리소스가 존재하지 않습니다.',
  'request.invalid_field': '{field} 필드의 값이 유효하지 않습니다.',
  'request.missing_field': '필수 필드 {field}이(가) 누락되었습니다.',
  'request.unknown_field': '알 수 없는 필드 {field}입니다.',
  'request.body_required': 'JSON 객체 형식의 요청 본문이 필요합니다.',
  'query.unknown_parameter': '알 수 없는 쿼리 매개변수 {name}입니다.',
  'query.repeated_parameter': '쿼리 매개변수 {name}이(가) 중복되었습니다.',
  'query.empty_parameter': '쿼리 매개변수 {name}이(가) 비어 있습니다.',
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
};
