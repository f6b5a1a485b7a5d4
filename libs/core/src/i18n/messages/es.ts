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
  'request.invalid_json': 'El cuerpo de la solicitud no es un JSON válido.',
  'request.unsupported_media_type': 'Tipo de contenido no admitido. Envíe el cuerpo como application/json.',
  'request.body_too_large': 'El cuerpo de la solicitud es demasiado grande. El límite es de {limit} bytes.',
  'request.not_found': 'El recurso solicitado no existe.',
  'request.invalid_field': 'Valor no válido para el campo {field}.',
  'request.missing_field': 'Falta el campo obligatorio {field}.',
  'request.unknown_field': 'Campo desconocido {field}.',
  'request.body_required': 'El cuerpo de la solicitud debe ser un objeto JSON.',
  'query.unknown_parameter': 'Parámetro de consulta desconocido {name}.',
  'query.repeated_parameter': 'El parámetro de consulta {name} está repetido.',
  'query.empty_parameter': 'El parámetro de consulta {name} está vacío.',
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
};
