import type { MessageCatalog } from './en';

export const es: MessageCatalog = {
  success: 'éxito',
  'auth.missing_key': 'Falta la clave de API. Envíela como "Authorization: Bearer <API_KEY>".',
  'auth.invalid_key': 'La clave de API no es válida.',
  'auth.unsupported_scheme':
    'Esquema de autorización no admitido. Envíe la clave como "Authorization: Bearer <API_KEY>".',
  'auth.key_in_query':
    'Las claves de API nunca se aceptan en la URL. Envíe la clave en el encabezado Authorization.',
  'auth.admin_required': 'Se requiere un token de administrador válido.',
  'auth.console_required': 'Se requiere un token de sesión de consola válido.',
  'auth.console_session_required': 'Se requiere una sesión de consola válida. Vuelva a iniciar sesión.',
  'auth.console_link_invalid':
    'Este enlace de inicio de sesión no es válido, ha caducado o ya se usó. Solicite un enlace nuevo.',
  'auth.csrf_missing': 'Esta solicitud necesita el encabezado X-CSRF-Token de su sesión de consola.',
  'auth.csrf_invalid': 'El encabezado X-CSRF-Token no coincide con su sesión de consola.',
  'request.invalid_json': 'El cuerpo de la solicitud no es un JSON válido.',
  'request.unsupported_media_type': 'Tipo de contenido no admitido. Envíe el cuerpo como application/json.',
  'request.body_too_large': 'El cuerpo de la solicitud es demasiado grande. El límite es de {limit} bytes.',
  'request.not_found': 'El recurso solicitado no existe.',
  'request.invalid_field': 'Valor no válido para el campo {field}.',
  'request.missing_field': 'Falta el campo obligatorio {field}.',
  'request.unknown_field': 'Campo desconocido {field}.',
  'request.body_required': 'El cuerpo de la solicitud debe ser un objeto JSON.',
  'request.too_deep':
    'El cuerpo JSON está anidado a demasiada profundidad: como máximo {max} niveles de objetos y arrays.',
  'request.nul_character': 'El campo {field} contiene un carácter NUL (U+0000), que no se acepta.',
  'request.ill_formed_text':
    'El campo {field} no es Unicode bien formado: contiene un sustituto (surrogate) aislado.',
  'request.invalid_url':
    'La URL de la solicitud no es válida: un segmento de la ruta es demasiado largo o no está bien codificado con porcentajes.',
  'request.malformed_http':
    'No se pudo leer la solicitud: su línea de solicitud o una cabecera no es HTTP válido (por ejemplo, un carácter de control en el valor de una cabecera).',
  'request.headers_too_large': 'Las cabeceras de la solicitud son demasiado grandes.',
  'request.timeout': 'La solicitud no se recibió completa a tiempo.',
  'query.unknown_parameter': 'Parámetro de consulta desconocido {name}.',
  'query.repeated_parameter': 'El parámetro de consulta {name} está repetido.',
  'query.empty_parameter': 'El parámetro de consulta {name} está vacío.',
  'query.cursor_filters_changed':
    'El cursor se emitió para otros filtros: {name} es distinto. Envíe de nuevo los filtros de la primera página o empiece de nuevo sin cursor.',
  'server.error': 'Error interno del servidor. Indique el request_id al informar del problema.',
  'server.unavailable':
    'El servicio no está disponible temporalmente. Vuelva a intentarlo aumentando progresivamente el tiempo de espera.',
  'server.draining': 'El servicio se está deteniendo. Vuelva a intentarlo en breve.',
  'rate.limited': 'Demasiadas solicitudes. Vuelva a intentarlo dentro de {seconds} segundos.',
  'account.not_found': 'No se encontró la cuenta.',
  'key.not_found': 'No se encontró la clave de API.',
  'group.unknown': 'Grupo de cuentas desconocido {group}.',
  'language.unsupported':
    'Idioma no admitido {language}. Idiomas admitidos: en, zh-Hant, ja, ko, de, fr, es, pt-BR, ru.',
  'amount.invalid':
    'Importe no válido para {field}: use un número decimal positivo en USD con un máximo de 9 decimales.',
  'credit.model_required': 'Una asignación de crédito debe indicar el modelo que financia (model).',
  'credit.model_only_for_grants':
    'Solo una asignación de crédito puede limitarse a un modelo; omita model para el crédito de monedero y el promocional.',
  'credit.expiry_in_past': 'La fecha de vencimiento debe ser futura.',
  'model.not_found':
    'El modelo {model} no existe. Use un identificador exacto de la lista de modelos, como publisher/model o publisher/model/chat.',
  'model.search_too_long': 'El texto de búsqueda es demasiado largo: como máximo {max} caracteres.',
  'input.not_object': 'El campo {field} debe ser un objeto JSON.',
  'input.wrong_type': 'El campo {field} debe ser de tipo {type}.',
  'input.not_allowed_value': 'El campo {field} debe tener uno de estos valores: {allowed}.',
  'input.too_small': 'El campo {field} debe valer como mínimo {limit}.',
  'input.too_large': 'El campo {field} debe valer como máximo {limit}.',
  'input.not_above': 'El campo {field} debe ser mayor que {limit}.',
  'input.not_below': 'El campo {field} debe ser menor que {limit}.',
  'input.not_multiple': 'El campo {field} debe ser múltiplo de {limit}.',
  'input.too_short': 'El campo {field} debe tener al menos {limit} caracteres.',
  'input.too_long': 'El campo {field} debe tener como máximo {limit} caracteres.',
  'input.too_few_items': 'El campo {field} debe tener al menos {limit} elementos.',
  'input.too_many_items': 'El campo {field} debe tener como máximo {limit} elementos.',
  'input.bad_format': 'El campo {field} no tiene el formato esperado.',
  'input.not_media_uri':
    'El campo {field} debe ser la URI service:// de un archivo subido (service://files/fil_...) o una URL https://.',
  'input.media_not_found':
    'El campo {field} no nombra un archivo listo de esta cuenta. Suba y confirme (commit) el archivo y use la uri que devolvió la confirmación.',
  'input.image_url_invalid':
    'La imagen en {field} no se puede usar ({reason}). Envíe una URL data: de una imagen PNG, JPEG, WebP o GIF de 10 MiB como máximo (base64), una URL https en el puerto 443 sin datos de usuario de 2048 caracteres como máximo, o la URI service:// de una imagen subida de esta cuenta.',
  'input.media_wrong_kind':
    'El campo {field} admite archivos de tipo {kind}; el archivo indicado es {contentType}.',
  'balance.insufficient': 'Saldo insuficiente: los fondos disponibles no cubren esta solicitud.',
  'spend_cap.reached': 'El límite de gasto diario de esta clave de API no cubre esta solicitud.',
  'quote.expired_or_changed':
    'La cotización ha caducado o no coincide con esta solicitud. Solicite una nueva cotización.',
  'quote.incomplete': 'Envíe quoteId y expectedCost juntos.',
  'idempotency.conflict':
    'Esta Idempotency-Key ya se usó con otra solicitud. Use una clave nueva para una solicitud nueva.',
  'idempotency.other_api_key': 'Esta Idempotency-Key ya la usó otra clave de API de esta cuenta.',
  'idempotency.in_progress':
    'Una solicitud con esta Idempotency-Key todavía se está procesando. Reintente con la misma clave y el mismo contenido.',
  'idempotency.invalid_key': 'La cabecera Idempotency-Key debe tener de 1 a 255 caracteres ASCII visibles.',
  'callback.invalid': 'URL de devolución de llamada no válida',
  'retention.invalid': 'X-Service-Retention debe ser un número entero de segundos mayor que 0.',
  'model.unavailable':
    'El modelo {model} no está disponible en este momento. Reintente más tarde o elija otro modelo.',
  'task.not_found': 'Tarea no encontrada.',
  'task.error.upstream_failed':
    'El proveedor del modelo no pudo producir un resultado. La retención se liberó; puede reintentar la tarea.',
  'task.error.content_rejected': 'La política de contenido rechazó la solicitud. No se cobró nada.',
  'task.error.internal_error':
    'La tarea falló por un error interno. La retención se liberó; puede reintentar la tarea.',
  'task.error.service_interrupted':
    'El servicio se detuvo mientras respondía (un reinicio o un fallo). No se cobró nada y la retención se liberó; puede enviar la solicitud de nuevo, con la misma Idempotency-Key.',
  'task.error.input_unavailable':
    'No se pudo leer un archivo multimedia de la entrada: el archivo ya no está disponible, o su URL fue rechazada, no se pudo alcanzar, respondió con un error o es demasiado grande. No se cobró nada.',
  'task.error.input_invalid':
    'Un archivo multimedia de la entrada no es un archivo compatible del tipo que admite su campo. No se cobró nada.',
  'task.not_retryable': 'Solo se puede reintentar una tarea fallida, caducada o cancelada.',
  'task.purged_not_retryable': 'No se puede reintentar una tarea purgada: su prompt ya no existe.',
  'task.not_terminal': 'La tarea todavía está en cola o en ejecución. Espere a un estado final.',
  'download.not_finished':
    'La tarea todavía está en estado {state}: sus resultados podrán descargarse cuando haya terminado con éxito.',
  'download.not_succeeded': 'La tarea terminó en estado {state}: no tiene resultados que descargar.',
  'download.outputs_gone':
    'Los resultados de esta tarea ya no existen: se purgó o terminó su período de conservación.',
  'download.no_outputs': 'Esta tarea no tiene archivos de resultado.',
  'download.no_such_output':
    'Esta tarea no tiene ningún resultado con esa clave. Las claves están en output.assets de recordInfo.',
  'download.output_unavailable': 'Este resultado no se pudo almacenar: no hay ningún archivo que descargar.',
  'download.output_pending':
    'Este resultado todavía no está listo. Vuelva a pedir una URL de descarga más tarde.',
  'query.range_too_long': 'El rango de fechas supera los {max} días.',
  'query.invalid_range': 'La fecha from debe ser anterior a la fecha to.',
  'query.timeout': 'La consulta superó su presupuesto de tiempo. Pruebe un rango de fechas más corto.',
  'webhook.endpoint_limit': 'Una cuenta puede tener como máximo {limit} endpoints de webhook.',
  'idempotency.required':
    'Esta solicitud necesita un encabezado Idempotency-Key: de 1 a 255 caracteres ASCII visibles, uno nuevo para cada solicitud nueva.',
  'asset.not_found': 'Recurso no encontrado.',
  'asset.file_not_ready':
    'El campo {field} debe ser la URI service://files/... de un archivo confirmado de esta cuenta, tal como la devolvió la confirmación de una subida.',
  'asset.quota_count':
    'La biblioteca de recursos está llena: su plan permite {limit} recursos. Elimine recursos o solicite un plan mayor.',
  'asset.quota_bytes':
    'Guardar este archivo ({bytes} bytes) superaría el límite de la biblioteca de recursos de {limit} bytes ({used} bytes usados). Elimine recursos o solicite un plan mayor.',
  'asset.replay_deleted':
    'Esta Idempotency-Key guardó el recurso {assetId}, que ya fue eliminado. Use una clave nueva para guardar el archivo otra vez.',
  'entity.not_found': 'Personaje no encontrado.',
  'compat.unsupported_parameter': 'El parámetro {param} no es compatible.',
  'compat.model_unsupported_parameter': 'El modelo {model} no admite el parámetro {param}.',
  'compat.model_unsupported_value': 'El modelo {model} no admite el valor {value} del parámetro {param}.',
  'compat.model_no_images':
    'El modelo {model} no acepta imágenes. Elimine la imagen en {param} o elija un modelo que acepte imágenes.',
  'chat_completions.max_tokens_conflict':
    'max_tokens y max_completion_tokens tienen valores distintos. Envíe solo uno de ellos.',
  'chat_completions.n_unsupported': 'Solo se genera una opción por solicitud: n debe ser 1.',
  'chat_completions.reasoning_conflict':
    'reasoning y reasoning_effort piden niveles de razonamiento distintos. Envíe solo uno de ellos.',
  'chat_completions.stream_options_without_stream': 'stream_options solo se permite cuando stream es true.',
  'compat.unsupported_type': 'El tipo {type} en {param} no es compatible.',
  'responses.previous_response_id':
    'previous_response_id no es compatible. Envíe la conversación completa en input y devuelva los resultados de las funciones como elementos function_call_output con el call_id correspondiente.',
  'generate_content.unsupported_parameter': 'El parámetro {param} no es compatible.',
  'generate_content.roles_not_alternating':
    'Los contents deben alternar entre los roles user y model: {param} repite el rol anterior.',
  'generate_content.unmatched_function_response':
    'La functionResponse {param} no responde a ninguna functionCall con el mismo nombre del turno model anterior.',
  'generate_content.unsupported_media':
    'El tipo de medio {mimeType} de {param} no es compatible. Envíe las imágenes como JPEG, PNG, WebP o GIF.',
  'generate_content.file_uri_not_https': 'La fileUri {param} debe ser una URL https.',
  'generate_content.conflicting_fields': 'Envíe solo uno de {first} y {second}.',
  'generate_content.schema_needs_json': 'Un esquema de respuesta requiere responseMimeType application/json.',
  'stream.not_text':
    'El modelo {model} no es un modelo de texto: /api/v1/jobs/stream y los endpoints de compatibilidad solo sirven modelos de texto. Use createTask.',
  'stream.replayed':
    'Esta Idempotency-Key ya inició un stream para la tarea {taskId}. Su respuesta no se puede enviar de nuevo y no se cobra nada dos veces: lea la tarea con recordInfo.',
  'compat.model_not_found':
    'El modelo {model} no existe. Los ids de modelo tienen la forma publisher/model/chat; el modelo de chat más cercano es {closest}.',
  'compat.model_not_found_none':
    'El modelo {model} no existe. Los ids de modelo tienen la forma publisher/model/chat; lístelos con GET /v1/models?modality=text.',
  'compat.not_chat_model':
    'El modelo {model} no es un modelo de chat: úselo con POST /api/v1/jobs/createTask.',
  'compat.not_video_model':
    'El modelo {model} no es un modelo de vídeo: /v1/videos solo crea tareas de modelos de vídeo.',
  'compat.video_not_ready': 'El vídeo {id} aún no tiene contenido (estado {status}).',
  'media.unsupported_type':
    'El tipo de contenido {contentType} no es compatible. Suba una imagen JPEG, PNG, WebP o GIF, un vídeo MP4 o WebM, o audio MP3 o WAV.',
  'media.too_large':
    'El archivo es demasiado grande: un archivo {contentType} puede tener como máximo {limit} bytes.',
  'media.empty': 'El archivo está vacío. No se conservó nada.',
  'media.pending':
    'La subida de {fileId} aún no está completa. Envíe todos los bytes a la URL de subida con sus encabezados y vuelva a confirmar.',
  'media.size_mismatch':
    'El archivo almacenado tiene {actual} bytes, pero el ticket de subida declaró {expected}. No se conservó nada.',
  'media.type_mismatch': 'El archivo no es {declared}: su contenido es {detected}. No se conservó nada.',
  'media.type_unknown':
    'El archivo no es {declared}: su contenido no es un tipo de medio compatible. No se conservó nada.',
  'media.damaged':
    'El archivo no se puede leer como {contentType}: está dañado o incompleto. No se conservó nada.',
  'media.trailing_data':
    'El archivo contiene más datos después del final de su contenido {contentType}, por ejemplo otro archivo añadido. No se conservó nada.',
  'media.no_duration': 'No se puede medir la duración del archivo {contentType}. No se conservó nada.',
  'media.too_long':
    'El medio dura {seconds} segundos; se aceptan como máximo {max} segundos. No se conservó nada.',
  'import.invalid_url':
    'La URL de importación debe ser una URL https en el puerto 443, sin usuario ni contraseña, cuyo host se resuelva solo a direcciones públicas.',
  'import.redirect_refused':
    'La URL de importación redirigió a un destino no permitido (https en el puerto 443, solo direcciones públicas) o redirigió demasiadas veces. No se importó nada.',
  'import.http_status': 'La URL de importación respondió HTTP {status}. No se importó nada.',
  'import.unreachable':
    'No se pudo descargar la URL de importación: la conexión falló o se agotó el tiempo. No se importó nada.',
  'import.too_large': 'El archivo de la URL de importación supera los {limit} bytes. No se importó nada.',
  'import.unsupported_content':
    'El archivo de la URL de importación no es un tipo de medio compatible: imágenes JPEG, PNG, WebP o GIF, vídeo MP4 o WebM, audio MP3 o WAV. No se importó nada.',
  'import.deadline':
    'La URL de importación no envió el archivo completo en {seconds} segundos. No se importó nada.',
  'import.too_many':
    'Esta clave de API ya tiene {limit} importaciones en curso, el máximo permitido a la vez. Vuelva a intentarlo dentro de {seconds} segundos.',
  'import.client_gone': 'La importación se detuvo porque el cliente cerró la conexión. No se importó nada.',
  'request.invalid_utf8':
    'El cuerpo de la solicitud no es UTF-8 válido: el byte en la posición {offset} no forma parte de un carácter UTF-8. Envíe JSON codificado en UTF-8.',
  'media.no_track':
    'El archivo {contentType} no contiene ninguna pista de vídeo o audio con duración: no hay nada que reproducir. No se guardó nada.',
  'media.inconsistent_header':
    'El archivo no se puede decodificar como {contentType}: su cabecera indica {field} = {value}, cuando se necesita {expected}. No se guardó nada.',
  'media.too_many_pixels':
    'La imagen mide {width} x {height} píxeles, {pixels} píxeles en total: más de los {max} píxeles aceptados, por lo que no se decodifica. No se guardó nada.',
  'group.invalid_multiplier':
    'El multiplicador del grupo debe ser un decimal de {min} a {max} con como máximo {decimals} decimales: los precios del grupo son los precios estándar multiplicados por él y deben seguir siendo mayores que cero. No se cambió nada.',
  'credit.model_unknown':
    'El modelo {model} de la concesión (model) no existe en el catálogo. Use un id exacto de la lista de modelos, como publisher/model o publisher/model/chat. No se añadió nada.',
};
