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
  'auth.console_session_required': '有効なコンソールセッションが必要です。もう一度サインインしてください。',
  'auth.console_link_invalid':
    'このサインインリンクは無効、期限切れ、または使用済みです。新しいリンクを依頼してください。',
  'auth.csrf_missing': 'このリクエストにはコンソールセッションの X-CSRF-Token ヘッダーが必要です。',
  'auth.csrf_invalid': 'X-CSRF-Token ヘッダーがコンソールセッションと一致しません。',
  'request.invalid_json': 'リクエスト本文が有効な JSON ではありません。',
  'request.unsupported_media_type':
    'サポートされていないコンテンツタイプです。本文は application/json で送信してください。',
  'request.body_too_large': 'リクエスト本文が大きすぎます。上限は {limit} バイトです。',
  'request.not_found': '要求されたリソースは存在しません。',
  'request.invalid_field': 'フィールド {field} の値が無効です。',
  'request.missing_field': '必須フィールド {field} がありません。',
  'request.unknown_field': '不明なフィールド {field} です。',
  'request.body_required': '本文には JSON オブジェクトが必要です。',
  'request.too_deep': 'JSON 本文の入れ子が深すぎます。オブジェクトと配列の入れ子は最大 {max} 階層までです。',
  'request.nul_character':
    'フィールド {field} に NUL 文字 (U+0000) が含まれています。NUL 文字は受け付けられません。',
  'request.ill_formed_text':
    'フィールド {field} は正しい形式の Unicode ではありません（対になっていないサロゲートを含みます）。',
  'request.invalid_url':
    'リクエスト URL が正しくありません。パスのセグメントが長すぎるか、パーセントエンコードが正しくありません。',
  'request.malformed_http':
    'リクエストを読み取れませんでした。リクエスト行またはヘッダーが有効な HTTP ではありません（例: ヘッダー値に制御文字が含まれている）。',
  'request.headers_too_large': 'リクエストヘッダーが大きすぎます。',
  'request.timeout': 'リクエストを時間内に最後まで受信できませんでした。',
  'query.unknown_parameter': '不明なクエリパラメーター {name} です。',
  'query.repeated_parameter': 'クエリパラメーター {name} が重複しています。',
  'query.empty_parameter': 'クエリパラメーター {name} が空です。',
  'query.cursor_filters_changed':
    'このカーソルは別の絞り込み条件に対して発行されたものです（{name} が異なります）。最初のページと同じ条件を送るか、カーソルなしでやり直してください。',
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
  'input.not_media_uri':
    'フィールド {field} には、アップロード済みファイルの service:// URI（service://files/fil_...）または https:// URL を指定してください。',
  'input.media_not_found':
    'フィールド {field} は、このアカウントの準備済みファイルを指していません。ファイルをアップロードしてコミットし、コミットで返された uri を使用してください。',
  'input.image_url_invalid':
    '{field} の画像は使用できません（{reason}）。10 MiB 以下の PNG・JPEG・WebP・GIF 画像の data: URL（base64）、ユーザー情報を含まないポート 443 の 2048 文字以下の https URL、またはこのアカウントでアップロードした画像の service:// URI を送信してください。',
  'input.media_wrong_kind':
    'フィールド {field} は {kind} ファイルを受け付けますが、指定されたファイルは {contentType} です。',
  'balance.insufficient': '残高不足です。利用可能な資金ではこのリクエストを賄えません。',
  'spend_cap.reached': 'この API キーの1日あたりの支出上限ではこのリクエストを賄えません。',
  'quote.expired_or_changed':
    '見積もりの有効期限が切れているか、このリクエストと一致しません。新しい見積もりを取得してください。',
  'quote.incomplete': 'quoteId と expectedCost は一緒に送信してください。',
  'idempotency.conflict':
    'この Idempotency-Key は別のリクエストで使用済みです。新しいリクエストには新しいキーを使用してください。',
  'idempotency.other_api_key': 'この Idempotency-Key は、このアカウントの別の API キーで使用済みです。',
  'idempotency.in_progress':
    'この Idempotency-Key のリクエストはまだ処理中です。同じキーと内容で再試行してください。',
  'idempotency.invalid_key':
    'Idempotency-Key ヘッダーは 1〜255 文字の表示可能な ASCII 文字である必要があります。',
  'callback.invalid': '無効なコールバック URL',
  'retention.invalid': 'X-Service-Retention は 0 より大きい整数の秒数である必要があります。',
  'model.unavailable':
    'モデル {model} は現在利用できません。後で再試行するか、別のモデルを選択してください。',
  'task.not_found': 'タスクが見つかりません。',
  'task.error.upstream_failed':
    'モデルプロバイダーが結果を生成できませんでした。保留額は解放されました。タスクを再試行できます。',
  'task.error.content_rejected':
    'リクエストはコンテンツポリシーにより拒否されました。料金は発生していません。',
  'task.error.internal_error':
    '内部エラーのためタスクが失敗しました。保留額は解放されました。タスクを再試行できます。',
  'task.error.service_interrupted':
    '応答の途中でサービスが停止しました（再起動またはクラッシュ）。料金は発生しておらず、保留額は解放されました。同じ Idempotency-Key でリクエストを再送できます。',
  'task.error.input_unavailable':
    '入力のメディアファイルを読み取れませんでした。ファイルが利用できなくなったか、URL が拒否された、到達できなかった、エラーを返した、またはサイズが大きすぎます。料金は発生していません。',
  'task.error.input_invalid':
    '入力のメディアファイルが、そのフィールドが受け付ける種類のサポート対象ファイルではありません。料金は発生していません。',
  'task.not_retryable': '再試行できるのは、失敗・期限切れ・キャンセル済みのタスクのみです。',
  'task.purged_not_retryable': 'パージ済みのタスクは再試行できません。プロンプトがすでに削除されています。',
  'task.not_terminal': 'タスクはまだ待機中または実行中です。終了状態になるまでお待ちください。',
  'download.not_finished': 'タスクはまだ {state} です。成功すると出力をダウンロードできます。',
  'download.not_succeeded': 'タスクは {state} で終了しました。ダウンロードできる出力はありません。',
  'download.outputs_gone': 'このタスクの出力はもう存在しません。パージされたか、保持期間が終了しました。',
  'download.no_outputs': 'このタスクには出力ファイルがありません。',
  'download.no_such_output':
    'このタスクにはそのキーの出力がありません。キーは recordInfo の output.assets にあります。',
  'download.output_unavailable': 'この出力は保存できませんでした。ダウンロードできるファイルはありません。',
  'download.output_pending':
    'この出力はまだ準備できていません。しばらくしてからもう一度ダウンロード URL を要求してください。',
  'query.range_too_long': '日付範囲が {max} 日を超えています。',
  'query.invalid_range': 'from の日付は to の日付より前である必要があります。',
  'query.timeout': 'クエリが制限時間を超えました。より短い日付範囲をお試しください。',
  'webhook.endpoint_limit': '1 つのアカウントに登録できる Webhook エンドポイントは最大 {limit} 個です。',
  'idempotency.required':
    'このリクエストには Idempotency-Key ヘッダーが必要です。表示可能な ASCII 文字 1〜255 文字で、新しいリクエストごとに新しい値にしてください。',
  'asset.not_found': 'アセットが見つかりません。',
  'asset.file_not_ready':
    'フィールド {field} には、このアカウントのコミット済みファイルの service://files/... URI (アップロードのコミットが返したもの) を指定してください。',
  'asset.quota_count':
    'アセットライブラリが上限に達しています。プランで保存できるアセットは {limit} 個です。アセットを削除するか、より大きなプランをご依頼ください。',
  'asset.quota_bytes':
    'このファイル ({bytes} バイト) を保存すると、アセットライブラリの上限 {limit} バイトを超えます (使用中 {used} バイト)。アセットを削除するか、より大きなプランをご依頼ください。',
  'asset.replay_deleted':
    'この Idempotency-Key で保存されたアセット {assetId} は、その後削除されました。ファイルを再度保存するには新しいキーを使用してください。',
  'entity.not_found': 'キャラクターが見つかりません。',
  'compat.unsupported_parameter': 'パラメーター {param} はサポートされていません。',
  'compat.model_unsupported_parameter': 'モデル {model} はパラメーター {param} をサポートしていません。',
  'compat.model_unsupported_value':
    'モデル {model} はパラメーター {param} の値 {value} をサポートしていません。',
  'compat.model_no_images':
    'モデル {model} は画像を受け付けません。{param} の画像を削除するか、画像を受け付けるモデルを選択してください。',
  'chat_completions.max_tokens_conflict':
    'max_tokens と max_completion_tokens の値が異なります。どちらか一方だけを送信してください。',
  'chat_completions.n_unsupported':
    '1 回のリクエストで生成される選択肢は 1 つだけです。n は 1 にしてください。',
  'chat_completions.reasoning_conflict':
    'reasoning と reasoning_effort が異なる推論レベルを指定しています。どちらか一方だけを送信してください。',
  'chat_completions.stream_options_without_stream':
    'stream_options は stream が true の場合にのみ指定できます。',
  'compat.unsupported_type': '{param} の型 {type} はサポートされていません。',
  'responses.previous_response_id':
    'previous_response_id はサポートされていません。会話全体を input で送信し、関数の結果は対応する call_id を持つ function_call_output 項目として返してください。',
  'generate_content.unsupported_parameter': 'パラメーター {param} はサポートされていません。',
  'generate_content.roles_not_alternating':
    'contents はロール user と model を交互に並べる必要があります。{param} は直前と同じロールです。',
  'generate_content.unmatched_function_response':
    'functionResponse {param} に対応する同名の functionCall が直前の model ターンにありません。',
  'generate_content.unsupported_media':
    '{param} のメディアタイプ {mimeType} はサポートされていません。画像は JPEG、PNG、WebP、GIF で送信してください。',
  'generate_content.file_uri_not_https': 'fileUri {param} は https の URL である必要があります。',
  'generate_content.conflicting_fields': '{first} と {second} のどちらか一方のみを送信してください。',
  'generate_content.schema_needs_json':
    'レスポンススキーマには responseMimeType application/json が必要です。',
  'stream.not_text':
    'モデル {model} はテキストモデルではありません。/api/v1/jobs/stream と互換エンドポイントはテキストモデル専用です。createTask を使用してください。',
  'stream.replayed':
    'この Idempotency-Key はタスク {taskId} のストリームをすでに開始しています。その応答は再送できず、二重に課金されることはありません。recordInfo でタスクを参照してください。',
  'compat.model_not_found':
    'モデル {model} は存在しません。モデル ID は publisher/model/chat の形式です。最も近いチャットモデルは {closest} です。',
  'compat.model_not_found_none':
    'モデル {model} は存在しません。モデル ID は publisher/model/chat の形式です。GET /v1/models?modality=text で一覧を取得してください。',
  'compat.not_chat_model':
    'モデル {model} はチャットモデルではありません。POST /api/v1/jobs/createTask で使用してください。',
  'compat.not_video_model':
    'モデル {model} は動画モデルではありません。/v1/videos は動画モデルのタスクのみ作成します。',
  'compat.video_not_ready': '動画 {id} にはまだコンテンツがありません（状態 {status}）。',
  'media.unsupported_type':
    'コンテンツタイプ {contentType} はサポートされていません。JPEG、PNG、WebP、GIF の画像、MP4 または WebM の動画、MP3 または WAV の音声をアップロードしてください。',
  'media.too_large': 'ファイルが大きすぎます。{contentType} ファイルは最大 {limit} バイトです。',
  'media.empty': 'ファイルが空です。何も保存されませんでした。',
  'media.pending':
    '{fileId} のアップロードはまだ完了していません。すべてのバイトを指定のヘッダー付きでアップロード URL に送信してから、もう一度コミットしてください。',
  'media.size_mismatch':
    '保存されたファイルは {actual} バイトですが、アップロードチケットでは {expected} バイトと宣言されていました。何も保存されませんでした。',
  'media.type_mismatch':
    'ファイルは {declared} ではありません。内容は {detected} です。何も保存されませんでした。',
  'media.type_unknown':
    'ファイルは {declared} ではありません。内容はサポートされているメディアタイプではありません。何も保存されませんでした。',
  'media.damaged':
    'ファイルを {contentType} として読み取れません。破損しているか不完全です。何も保存されませんでした。',
  'media.trailing_data':
    'ファイルの {contentType} コンテンツの終わりの後に、別のファイルの追加などのデータが含まれています。何も保存されませんでした。',
  'media.no_duration': '{contentType} ファイルの再生時間を測定できません。何も保存されませんでした。',
  'media.too_long':
    'メディアの長さは {seconds} 秒です。受け付けるのは最大 {max} 秒です。何も保存されませんでした。',
  'import.invalid_url':
    'インポート URL は、ユーザー名やパスワードを含まず、ホストが公開アドレスのみに解決される、ポート 443 の https URL である必要があります。',
  'import.redirect_refused':
    'インポート URL が許可されていない宛先（ポート 443 の https、公開アドレスのみ）にリダイレクトしたか、リダイレクトが多すぎます。何もインポートされませんでした。',
  'import.http_status': 'インポート URL が HTTP {status} を返しました。何もインポートされませんでした。',
  'import.unreachable':
    'インポート URL を取得できませんでした。接続に失敗したかタイムアウトしました。何もインポートされませんでした。',
  'import.too_large':
    'インポート URL のファイルは {limit} バイトを超えています。何もインポートされませんでした。',
  'import.unsupported_content':
    'インポート URL のファイルはサポートされているメディアタイプではありません（JPEG、PNG、WebP、GIF の画像、MP4 または WebM の動画、MP3 または WAV の音声）。何もインポートされませんでした。',
  'import.deadline':
    'インポート URL は {seconds} 秒以内にファイル全体を送信しませんでした。何もインポートされませんでした。',
  'import.too_many':
    'この API キーではすでに {limit} 件のインポートが進行中で、同時に実行できる上限です。{seconds} 秒後に再試行してください。',
  'import.client_gone':
    'クライアントが接続を閉じたため、インポートを中止しました。何もインポートされませんでした。',
  'request.invalid_utf8':
    'リクエスト本文が有効な UTF-8 ではありません。オフセット {offset} のバイトは UTF-8 文字の一部ではありません。JSON は UTF-8 でエンコードして送信してください。',
  'media.no_track':
    '{contentType} ファイルには長さのある動画または音声のトラックがなく、再生できる内容がありません。何も保存されませんでした。',
  'media.inconsistent_header':
    'ファイルを {contentType} としてデコードできません。ヘッダーの {field} が {value} ですが、{expected} である必要があります。何も保存されませんでした。',
  'media.too_many_pixels':
    '画像は {width} x {height} ピクセル、合計 {pixels} ピクセルで、受け付ける上限の {max} ピクセルを超えているためデコードしません。何も保存されませんでした。',
  'group.invalid_multiplier':
    'グループの乗数は {min} から {max} までの小数で、小数点以下は {decimals} 桁以内にしてください。グループの価格は標準価格にこの値を掛けたもので、ゼロより大きくなければなりません。何も変更されませんでした。',
  'credit.model_unknown':
    '付与のモデル {model}（model）はカタログに存在しません。publisher/model や publisher/model/chat のように、モデル一覧の正確な ID を使ってください。何も追加されませんでした。',
};
