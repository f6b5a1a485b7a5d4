import type { MessageCatalog } from './en';

export const ru: MessageCatalog = {
  success: 'успешно',
  'auth.missing_key': 'Отсутствует API-ключ. Передайте его в виде «Authorization: Bearer <API_KEY>».',
  'auth.invalid_key': 'Недействительный API-ключ.',
  'auth.unsupported_scheme':
    'Неподдерживаемая схема авторизации. Передайте ключ в виде «Authorization: Bearer <API_KEY>».',
  'auth.key_in_query': 'API-ключи никогда не принимаются в URL. Передайте ключ в заголовке Authorization.',
  'auth.admin_required': 'Требуется действительный токен администратора.',
  'auth.console_required': 'Требуется действительный токен сеанса консоли.',
  'auth.console_session_required': 'Требуется действительный сеанс консоли. Войдите снова.',
  'auth.console_link_invalid':
    'Эта ссылка для входа недействительна, истекла или уже использована. Запросите новую ссылку.',
  'auth.csrf_missing': 'Этому запросу нужен заголовок X-CSRF-Token вашего сеанса консоли.',
  'auth.csrf_invalid': 'Заголовок X-CSRF-Token не соответствует вашему сеансу консоли.',
  'request.invalid_json': 'Тело запроса не является корректным JSON.',
  'request.unsupported_media_type':
    'Неподдерживаемый тип содержимого. Передайте тело запроса в формате application/json.',
  'request.body_too_large': 'Тело запроса слишком велико. Ограничение: {limit} байт.',
  'request.not_found': 'Запрошенный ресурс не существует.',
  'request.invalid_field': 'Недопустимое значение поля {field}.',
  'request.missing_field': 'Отсутствует обязательное поле {field}.',
  'request.unknown_field': 'Неизвестное поле {field}.',
  'request.body_required': 'Тело запроса должно быть JSON-объектом.',
  'request.too_deep':
    'JSON-тело запроса вложено слишком глубоко: допускается не более {max} уровней объектов и массивов.',
  'request.nul_character': 'Поле {field} содержит символ NUL (U+0000), который не допускается.',
  'request.ill_formed_text': 'Поле {field} не является корректным Unicode: оно содержит непарный суррогат.',
  'request.invalid_url':
    'Недопустимый URL запроса: сегмент пути слишком длинный или неверно закодирован (percent-encoding).',
  'request.malformed_http':
    'Не удалось прочитать запрос: строка запроса или заголовок не соответствует HTTP (например, управляющий символ в значении заголовка).',
  'request.headers_too_large': 'Заголовки запроса слишком велики.',
  'request.timeout': 'Запрос не был получен полностью вовремя.',
  'query.unknown_parameter': 'Неизвестный параметр запроса {name}.',
  'query.repeated_parameter': 'Параметр запроса {name} указан повторно.',
  'query.empty_parameter': 'Параметр запроса {name} пуст.',
  'query.cursor_filters_changed':
    'Курсор выдан для других фильтров: отличается {name}. Отправьте фильтры первой страницы ещё раз или начните заново без курсора.',
  'server.error': 'Внутренняя ошибка сервера. Сообщая о проблеме, укажите request_id.',
  'server.unavailable':
    'Сервис временно недоступен. Повторите запрос, постепенно увеличивая интервал между попытками.',
  'server.draining': 'Сервис завершает работу. Повторите попытку чуть позже.',
  'rate.limited': 'Слишком много запросов. Повторите попытку через {seconds} с.',
  'account.not_found': 'Аккаунт не найден.',
  'key.not_found': 'API-ключ не найден.',
  'group.unknown': 'Неизвестная группа аккаунтов {group}.',
  'language.unsupported':
    'Неподдерживаемый язык {language}. Поддерживаются: en, zh-Hant, ja, ko, de, fr, es, pt-BR, ru.',
  'amount.invalid':
    'Недопустимая сумма в поле {field}: укажите положительное десятичное число в USD, не более 9 знаков после запятой.',
  'credit.model_required':
    'Для начисления кредита необходимо указать модель, которую оно оплачивает (model).',
  'credit.model_only_for_grants':
    'Ограничение по модели допускается только для начисления кредита; для кошелька и промокредитов не указывайте model.',
  'credit.expiry_in_past': 'Срок действия должен истекать в будущем.',
  'model.not_found':
    'Модель {model} не существует. Укажите точный идентификатор из списка моделей, например publisher/model или publisher/model/chat.',
  'model.search_too_long': 'Слишком длинный текст поиска: не более {max} символов.',
  'input.not_object': 'Поле {field} должно быть объектом JSON.',
  'input.wrong_type': 'Поле {field} должно иметь тип {type}.',
  'input.not_allowed_value': 'Поле {field} должно иметь одно из значений: {allowed}.',
  'input.too_small': 'Значение поля {field} должно быть не меньше {limit}.',
  'input.too_large': 'Значение поля {field} должно быть не больше {limit}.',
  'input.not_above': 'Значение поля {field} должно быть больше {limit}.',
  'input.not_below': 'Значение поля {field} должно быть меньше {limit}.',
  'input.not_multiple': 'Значение поля {field} должно быть кратно {limit}.',
  'input.too_short': 'Поле {field} должно содержать не менее {limit} символов.',
  'input.too_long': 'Поле {field} должно содержать не более {limit} символов.',
  'input.too_few_items': 'Поле {field} должно содержать не менее {limit} элементов.',
  'input.too_many_items': 'Поле {field} должно содержать не более {limit} элементов.',
  'input.bad_format': 'Поле {field} имеет неверный формат.',
  'input.not_media_uri':
    'Поле {field} должно содержать URI service:// загруженного файла (service://files/fil_...) или URL https://.',
  'input.media_not_found':
    'Поле {field} не указывает на готовый файл этого аккаунта. Загрузите и подтвердите (commit) файл, затем используйте uri из ответа.',
  'input.image_url_invalid':
    'Изображение в {field} нельзя использовать ({reason}). Отправьте data:-URL изображения PNG, JPEG, WebP или GIF размером не более 10 МиБ (base64), https-URL на порту 443 без данных пользователя длиной не более 2048 символов или service://-URI изображения, загруженного этим аккаунтом.',
  'input.media_wrong_kind':
    'Поле {field} принимает файлы типа {kind}; указанный файл имеет тип {contentType}.',
  'balance.insufficient': 'Недостаточно средств: доступных средств не хватает для этого запроса.',
  'spend_cap.reached': 'Дневной лимит расходов этого API-ключа не покрывает этот запрос.',
  'quote.expired_or_changed':
    'Срок действия расчёта истёк или он не соответствует этому запросу. Запросите новый расчёт.',
  'quote.incomplete': 'Передавайте quoteId и expectedCost вместе.',
  'idempotency.conflict':
    'Этот Idempotency-Key уже использован для другого запроса. Для нового запроса используйте новый ключ.',
  'idempotency.other_api_key': 'Этот Idempotency-Key уже использован другим API-ключом этого аккаунта.',
  'idempotency.in_progress':
    'Запрос с этим Idempotency-Key ещё обрабатывается. Повторите его с тем же ключом и содержимым.',
  'idempotency.invalid_key': 'Заголовок Idempotency-Key должен содержать от 1 до 255 видимых символов ASCII.',
  'callback.invalid': 'Недопустимый URL обратного вызова',
  'retention.invalid': 'X-Service-Retention должно быть целым числом секунд больше 0.',
  'model.unavailable': 'Модель {model} сейчас недоступна. Повторите позже или выберите другую модель.',
  'task.not_found': 'Задача не найдена.',
  'task.error.upstream_failed':
    'Поставщик модели не смог получить результат. Резерв снят; задачу можно повторить.',
  'task.error.content_rejected': 'Запрос отклонён политикой в отношении контента. Средства не списаны.',
  'task.error.internal_error':
    'Задача завершилась с ошибкой из-за внутреннего сбоя. Резерв снят; задачу можно повторить.',
  'task.error.service_interrupted':
    'Сервис остановился во время ответа (перезапуск или сбой). Ничего не списано, резерв снят; запрос можно отправить снова, с тем же Idempotency-Key.',
  'task.error.input_unavailable':
    'Не удалось прочитать медиафайл из входных данных: файл больше недоступен, либо его URL отклонён, недоступен, ответил ошибкой или слишком велик. Ничего не списано.',
  'task.error.input_invalid':
    'Медиафайл из входных данных не является поддерживаемым файлом того типа, который принимает его поле. Ничего не списано.',
  'task.not_retryable': 'Повторить можно только завершившуюся с ошибкой, просроченную или отменённую задачу.',
  'task.purged_not_retryable': 'Очищенную (purge) задачу нельзя повторить: её промпт больше не существует.',
  'task.not_terminal': 'Задача ещё в очереди или выполняется. Дождитесь конечного состояния.',
  'download.not_finished':
    'Задача ещё в состоянии {state}: её результаты можно будет скачать после успешного завершения.',
  'download.not_succeeded': 'Задача завершилась в состоянии {state}: результатов для скачивания нет.',
  'download.outputs_gone': 'Результатов этой задачи больше нет: она очищена (purge) или срок хранения истёк.',
  'download.no_outputs': 'У этой задачи нет файлов результатов.',
  'download.no_such_output':
    'У этой задачи нет результата с таким ключом. Ключи указаны в output.assets ответа recordInfo.',
  'download.output_unavailable': 'Этот результат не удалось сохранить: скачивать нечего.',
  'download.output_pending': 'Этот результат ещё не готов. Запросите ссылку для скачивания позже.',
  'query.range_too_long': 'Диапазон дат длиннее {max} дней.',
  'query.invalid_range': 'Дата from должна быть раньше даты to.',
  'query.timeout': 'Запрос превысил отведённое время. Попробуйте более короткий диапазон дат.',
  'webhook.endpoint_limit': 'У аккаунта может быть не более {limit} конечных точек вебхуков.',
  'idempotency.required':
    'Этому запросу нужен заголовок Idempotency-Key: от 1 до 255 видимых символов ASCII, новый для каждого нового запроса.',
  'asset.not_found': 'Ресурс не найден.',
  'asset.file_not_ready':
    'Поле {field} должно содержать URI service://files/... подтверждённого файла этого аккаунта, как его вернуло подтверждение загрузки.',
  'asset.quota_count':
    'Библиотека ресурсов заполнена: тариф допускает {limit} ресурсов. Удалите ресурсы или запросите тариф побольше.',
  'asset.quota_bytes':
    'Сохранение этого файла ({bytes} байт) превысит лимит библиотеки ресурсов в {limit} байт (занято {used} байт). Удалите ресурсы или запросите тариф побольше.',
  'asset.replay_deleted':
    'Этот Idempotency-Key сохранил ресурс {assetId}, который с тех пор удалён. Чтобы снова сохранить файл, используйте новый ключ.',
  'entity.not_found': 'Персонаж не найден.',
  'compat.unsupported_parameter': 'Параметр {param} не поддерживается.',
  'compat.model_unsupported_parameter': 'Модель {model} не поддерживает параметр {param}.',
  'compat.model_unsupported_value': 'Модель {model} не поддерживает значение {value} параметра {param}.',
  'compat.model_no_images':
    'Модель {model} не принимает изображения. Удалите изображение в {param} или выберите модель, которая принимает изображения.',
  'chat_completions.max_tokens_conflict':
    'У max_tokens и max_completion_tokens разные значения. Отправьте только один из них.',
  'chat_completions.n_unsupported':
    'На один запрос создаётся только один вариант ответа: n должно быть равно 1.',
  'chat_completions.reasoning_conflict':
    'reasoning и reasoning_effort запрашивают разные уровни рассуждения. Отправьте только один из них.',
  'chat_completions.stream_options_without_stream':
    'stream_options допускается, только если stream равно true.',
  'compat.unsupported_type': 'Тип {type} в {param} не поддерживается.',
  'responses.previous_response_id':
    'previous_response_id не поддерживается. Отправляйте всю переписку в input, а результаты функций возвращайте элементами function_call_output с соответствующим call_id.',
  'generate_content.unsupported_parameter': 'Параметр {param} не поддерживается.',
  'generate_content.roles_not_alternating':
    'Элементы contents должны чередовать роли user и model: {param} повторяет предыдущую роль.',
  'generate_content.unmatched_function_response':
    'functionResponse {param} не отвечает ни на один functionCall с тем же именем из предыдущего хода model.',
  'generate_content.unsupported_media':
    'Тип данных {mimeType} в {param} не поддерживается. Отправляйте изображения в формате JPEG, PNG, WebP или GIF.',
  'generate_content.file_uri_not_https': 'fileUri {param} должен быть URL-адресом https.',
  'generate_content.conflicting_fields': 'Отправьте только одно из полей {first} и {second}.',
  'generate_content.schema_needs_json': 'Для схемы ответа нужен responseMimeType application/json.',
  'stream.not_text':
    'Модель {model} не является текстовой: /api/v1/jobs/stream и эндпоинты совместимости обслуживают только текстовые модели. Используйте createTask.',
  'stream.replayed':
    'Этот Idempotency-Key уже запустил поток для задачи {taskId}. Его ответ нельзя отправить повторно, и ничего не списывается дважды: прочитайте задачу через recordInfo.',
  'compat.model_not_found':
    'Модель {model} не существует. Идентификаторы моделей имеют вид publisher/model/chat; ближайшая чат-модель — {closest}.',
  'compat.model_not_found_none':
    'Модель {model} не существует. Идентификаторы моделей имеют вид publisher/model/chat; получите их список через GET /v1/models?modality=text.',
  'compat.not_chat_model':
    'Модель {model} не является чат-моделью: используйте её через POST /api/v1/jobs/createTask.',
  'compat.not_video_model':
    'Модель {model} не является видеомоделью: /v1/videos создаёт задачи только видеомоделей.',
  'compat.video_not_ready': 'У видео {id} пока нет содержимого (статус {status}).',
  'media.unsupported_type':
    'Тип содержимого {contentType} не поддерживается. Загрузите изображение JPEG, PNG, WebP или GIF, видео MP4 или WebM либо аудио MP3 или WAV.',
  'media.too_large': 'Файл слишком большой: файл {contentType} может содержать не более {limit} байт.',
  'media.empty': 'Файл пуст. Ничего не сохранено.',
  'media.pending':
    'Загрузка {fileId} ещё не завершена. Отправьте все байты на URL загрузки с указанными заголовками и подтвердите ещё раз.',
  'media.size_mismatch':
    'Сохранённый файл содержит {actual} байт, но в билете загрузки указано {expected}. Ничего не сохранено.',
  'media.type_mismatch': 'Файл не является {declared}: его содержимое — {detected}. Ничего не сохранено.',
  'media.type_unknown':
    'Файл не является {declared}: его содержимое не относится к поддерживаемому типу медиа. Ничего не сохранено.',
  'media.damaged':
    'Файл невозможно прочитать как {contentType}: он повреждён или неполон. Ничего не сохранено.',
  'media.trailing_data':
    'После конца содержимого {contentType} в файле есть другие данные, например присоединённый второй файл. Ничего не сохранено.',
  'media.no_duration': 'Невозможно измерить длительность файла {contentType}. Ничего не сохранено.',
  'media.too_long':
    'Длительность медиа {seconds} секунд; допускается не более {max} секунд. Ничего не сохранено.',
  'import.invalid_url':
    'URL импорта должен быть URL https на порту 443 без имени пользователя и пароля, хост которого разрешается только в публичные адреса.',
  'import.redirect_refused':
    'URL импорта перенаправил на недопустимый адрес (только https на порту 443 и публичные адреса) или перенаправлял слишком много раз. Ничего не импортировано.',
  'import.http_status': 'URL импорта ответил HTTP {status}. Ничего не импортировано.',
  'import.unreachable':
    'Не удалось загрузить URL импорта: соединение не удалось или истекло время ожидания. Ничего не импортировано.',
  'import.too_large': 'Файл по URL импорта больше {limit} байт. Ничего не импортировано.',
  'import.unsupported_content':
    'Файл по URL импорта не относится к поддерживаемому типу медиа: изображения JPEG, PNG, WebP или GIF, видео MP4 или WebM, аудио MP3 или WAV. Ничего не импортировано.',
  'import.deadline': 'URL импорта не передал файл целиком за {seconds} секунд. Ничего не импортировано.',
  'import.too_many':
    'У этого API-ключа уже выполняется {limit} импортов — это максимум одновременно. Повторите попытку через {seconds} секунд.',
  'import.client_gone': 'Импорт остановлен, потому что клиент закрыл соединение. Ничего не импортировано.',
  'request.invalid_utf8':
    'Тело запроса не является корректным UTF-8: байт на позиции {offset} не входит ни в один символ UTF-8. Отправляйте JSON в кодировке UTF-8.',
  'media.no_track':
    'В файле {contentType} нет видео- или аудиодорожки с длительностью: в нём нечего воспроизводить. Ничего не сохранено.',
  'media.inconsistent_header':
    'Файл невозможно декодировать как {contentType}: в его заголовке {field} = {value}, а требуется {expected}. Ничего не сохранено.',
  'media.too_many_pixels':
    'Изображение размером {width} x {height} пикселей, всего {pixels} пикселей: больше допустимых {max} пикселей, поэтому оно не декодируется. Ничего не сохранено.',
  'group.invalid_multiplier':
    'Множитель группы должен быть десятичным числом от {min} до {max} не более чем с {decimals} знаками после запятой: цены группы — это стандартные цены, умноженные на него, и они должны оставаться больше нуля. Ничего не изменено.',
  'credit.model_unknown':
    'Модели {model} для начисления (model) нет в каталоге. Используйте точный id из списка моделей, например publisher/model или publisher/model/chat. Ничего не добавлено.',
};
