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
  'model.not_found':
    'モデル {model} は存在しません。モデル一覧にある正確な ID（publisher/model や publisher/model/chat など）を指定してください。',
  'model.search_too_long': '検索文字列が長すぎます。最大 {max} 文字までです。',
  'input.not_object': 'フィールド {field} は JSON オブジェクトである必要があります。',
  'input.wrong_type': 'フィールド {field} の型は {type} である必要があります。',
  'input.not_allowed_value': 'フィールド {field} は次のいずれかである必要があります: {allowed}。',
  'input.too_small': 'フィールド {field} は {limit} 以上である必要があります。',
  'input.too_large': 'フィールド {field} は {limit} 以下である必要があります。',
  'input.not_above': 'フィールド {field} は {limit} より大きい必要があります。',
  'input.not_below': 'フィールド {field} は {limit} より小さい必要があります。',
  'input.not_multiple': 'フィールド {field} は {limit} の倍数である必要があります。',
  'input.too_short': 'フィールド {field} は {limit} 文字以上である必要があります。',
  'input.too_long': 'フィールド {field} は {limit} 文字以下である必要があります。',
  'input.too_few_items': 'フィールド {field} には {limit} 個以上の要素が必要です。',
  'input.too_many_items': 'フィールド {field} の要素は {limit} 個までです。',
  'input.bad_format': 'フィールド {field} の形式が正しくありません。',
};
