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
};
