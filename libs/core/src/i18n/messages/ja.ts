import type { MessageCatalog } from './en';

export const ja: MessageCatalog = {
  success: '成功',
  'auth.missing_key': 'API キーがありません。「Authorization: Bearer <API_KEY>」の形式で送信してください。',
  'auth.invalid_key': 'API キーが無効です。',
  'auth.unsupported_scheme':
    'サポートされていない認証スキームです。キーは「Authorization: Bearer <API_KEY>」の形式で送信してください。',
  'auth.key_in_query':
    'API キーを URL に含めることはできません。キーは Authorization ヘッダーで送信してください。',
  'auth.admin_required': '有効な管理者トークンが必要です。',
  'auth.console_required': '有効なコンソールセッショントークンが必要です。',
  'request.invalid_json': 'リクエスト本文が有効な JSON ではありません。',
  'request.unsupported_media_type':
    'サポートされていないコンテンツタイプです。本文は application/json で送信してください。',
  'request.body_too_large': 'リクエスト本文が大きすぎます。上限は {limit} バイトです。',
  'request.not_found': '要求されたリソースは存在しません。',
  'request.invalid_field': 'フィールド {field} の値が無効です。',
  'request.missing_field': '必須フィールド {field} がありません。',
  'request.unknown_field': '不明なフィールド {field} です。',
  'request.body_required': '本文には JSON オブジェクトが必要です。',
  'query.unknown_parameter': '不明なクエリパラメーター {name} です。',
  'query.repeated_parameter': 'クエリパラメーター {name} が重複しています。',
  'query.empty_parameter': 'クエリパラメーター {name} が空です。',
  'server.error': 'サーバー内部エラーが発生しました。問題を報告する際は request_id をお知らせください。',
  'server.unavailable': 'サービスは一時的に利用できません。間隔を徐々に空けて再試行してください。',
  'server.draining': 'サービスは停止処理中です。しばらくしてから再試行してください。',
  'rate.limited': 'リクエストが多すぎます。{seconds} 秒後に再試行してください。',
  'account.not_found': 'アカウントが見つかりません。',
  'key.not_found': 'API キーが見つかりません。',
  'group.unknown': '不明なアカウントグループ {group} です。',
  'language.unsupported':
    'サポートされていない言語 {language} です。対応言語: en, zh-Hant, ja, ko, de, fr, es, pt-BR, ru。',
  'amount.invalid':
    '{field} の金額が無効です。小数点以下 9 桁以内の正の USD 金額を 10 進数で指定してください。',
  'credit.model_required': '付与クレジットには、その支払い対象となるモデル (model) の指定が必要です。',
  'credit.model_only_for_grants':
    'モデルに限定できるのは付与クレジットのみです。ウォレットおよびプロモーションクレジットでは model を省略してください。',
  'credit.expiry_in_past': '有効期限には将来の日時を指定してください。',
};
