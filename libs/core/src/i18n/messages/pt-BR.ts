import type { MessageCatalog } from './en';

export const ptBR: MessageCatalog = {
  success: 'sucesso',
  'auth.missing_key': 'Chave de API ausente. Envie-a como "Authorization: Bearer <API_KEY>".',
  'auth.invalid_key': 'Chave de API inválida.',
  'auth.unsupported_scheme':
    'Esquema de autorização não suportado. Envie a chave como "Authorization: Bearer <API_KEY>".',
  'auth.key_in_query': 'Chaves de API nunca são aceitas na URL. Envie a chave no cabeçalho Authorization.',
  'auth.admin_required': 'É necessário um token de administrador válido.',
  'auth.console_required': 'É necessário um token de sessão do console válido.',
  'request.invalid_json': 'O corpo da requisição não é um JSON válido.',
  'request.unsupported_media_type': 'Tipo de conteúdo não suportado. Envie o corpo como application/json.',
  'request.body_too_large': 'O corpo da requisição é grande demais. O limite é de {limit} bytes.',
  'request.not_found': 'O recurso solicitado não existe.',
  'request.invalid_field': 'Valor inválido para o campo {field}.',
  'request.missing_field': 'O campo obrigatório {field} está ausente.',
  'request.unknown_field': 'Campo desconhecido {field}.',
  'request.body_required': 'O corpo da requisição deve ser um objeto JSON.',
  'query.unknown_parameter': 'Parâmetro de consulta desconhecido {name}.',
  'query.repeated_parameter': 'O parâmetro de consulta {name} está repetido.',
  'query.empty_parameter': 'O parâmetro de consulta {name} está vazio.',
  'server.error': 'Erro interno do servidor. Informe o request_id ao relatar o problema.',
  'server.unavailable':
    'O serviço está temporariamente indisponível. Tente novamente aumentando gradualmente o intervalo entre as tentativas.',
  'server.draining': 'O serviço está sendo encerrado. Tente novamente em instantes.',
  'rate.limited': 'Muitas requisições. Tente novamente em {seconds} segundos.',
  'account.not_found': 'Conta não encontrada.',
  'key.not_found': 'Chave de API não encontrada.',
  'group.unknown': 'Grupo de contas desconhecido {group}.',
  'language.unsupported':
    'Idioma não suportado {language}. Idiomas suportados: en, zh-Hant, ja, ko, de, fr, es, pt-BR, ru.',
  'amount.invalid':
    'Valor inválido para {field}: use um decimal positivo em USD com no máximo 9 casas decimais.',
  'credit.model_required': 'Uma concessão de crédito precisa indicar o modelo que ela custeia (model).',
  'credit.model_only_for_grants':
    'Somente uma concessão de crédito pode ser limitada a um modelo; omita model para créditos de carteira e promocionais.',
  'credit.expiry_in_past': 'A data de expiração deve estar no futuro.',
};
