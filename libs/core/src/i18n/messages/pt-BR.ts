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
  'auth.console_session_required': 'É necessária uma sessão do console válida. Entre novamente.',
  'auth.console_link_invalid': 'Este link de acesso é inválido, expirou ou já foi usado. Peça um novo link.',
  'auth.csrf_missing': 'Esta solicitação precisa do cabeçalho X-CSRF-Token da sua sessão do console.',
  'auth.csrf_invalid': 'O cabeçalho X-CSRF-Token não corresponde à sua sessão do console.',
  'request.invalid_json': 'O corpo da requisição não é um JSON válido.',
  'request.unsupported_media_type': 'Tipo de conteúdo não suportado. Envie o corpo como application/json.',
  'request.body_too_large': 'O corpo da requisição é grande demais. O limite é de {limit} bytes.',
  'request.not_found': 'O recurso solicitado não existe.',
  'request.invalid_field': 'Valor inválido para o campo {field}.',
  'request.missing_field': 'O campo obrigatório {field} está ausente.',
  'request.unknown_field': 'Campo desconhecido {field}.',
  'request.body_required': 'O corpo da requisição deve ser um objeto JSON.',
  'request.too_deep':
    'O corpo JSON está aninhado em profundidade excessiva: no máximo {max} níveis de objetos e arrays.',
  'request.nul_character': 'O campo {field} contém um caractere NUL (U+0000), que não é aceito.',
  'request.ill_formed_text':
    'O campo {field} não é Unicode bem formado: contém um substituto (surrogate) isolado.',
  'request.invalid_url':
    'A URL da requisição não é válida: um segmento do caminho é longo demais ou não está codificado corretamente com porcentagem.',
  'request.malformed_http':
    'Não foi possível ler a requisição: a linha de requisição ou um cabeçalho não é HTTP válido (por exemplo, um caractere de controle no valor de um cabeçalho).',
  'request.headers_too_large': 'Os cabeçalhos da requisição são grandes demais.',
  'request.timeout': 'A requisição não foi recebida por completo a tempo.',
  'query.unknown_parameter': 'Parâmetro de consulta desconhecido {name}.',
  'query.repeated_parameter': 'O parâmetro de consulta {name} está repetido.',
  'query.empty_parameter': 'O parâmetro de consulta {name} está vazio.',
  'query.cursor_filters_changed':
    'O cursor foi emitido para outros filtros: {name} é diferente. Envie de novo os filtros da primeira página ou recomece sem cursor.',
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
  'model.not_found':
    'O modelo {model} não existe. Use um identificador exato da lista de modelos, como publisher/model ou publisher/model/chat.',
  'model.search_too_long': 'O texto de busca é longo demais: no máximo {max} caracteres.',
  'input.not_object': 'O campo {field} deve ser um objeto JSON.',
  'input.wrong_type': 'O campo {field} deve ser do tipo {type}.',
  'input.not_allowed_value': 'O campo {field} deve ter um destes valores: {allowed}.',
  'input.too_small': 'O campo {field} deve ser no mínimo {limit}.',
  'input.too_large': 'O campo {field} deve ser no máximo {limit}.',
  'input.not_above': 'O campo {field} deve ser maior que {limit}.',
  'input.not_below': 'O campo {field} deve ser menor que {limit}.',
  'input.not_multiple': 'O campo {field} deve ser um múltiplo de {limit}.',
  'input.too_short': 'O campo {field} deve ter pelo menos {limit} caracteres.',
  'input.too_long': 'O campo {field} deve ter no máximo {limit} caracteres.',
  'input.too_few_items': 'O campo {field} deve ter pelo menos {limit} itens.',
  'input.too_many_items': 'O campo {field} deve ter no máximo {limit} itens.',
  'input.bad_format': 'O campo {field} não está no formato esperado.',
  'input.not_media_uri':
    'O campo {field} deve ser a URI service:// de um arquivo enviado (service://files/fil_...) ou uma URL https://.',
  'input.media_not_found':
    'O campo {field} não indica um arquivo pronto desta conta. Envie e confirme (commit) o arquivo e use a uri retornada pela confirmação.',
  'input.image_url_invalid':
    'A imagem em {field} não pode ser usada ({reason}). Envie uma URL data: de uma imagem PNG, JPEG, WebP ou GIF de no máximo 10 MiB (base64), uma URL https na porta 443 sem dados de usuário de no máximo 2048 caracteres, ou a URI service:// de uma imagem enviada por esta conta.',
  'input.media_wrong_kind':
    'O campo {field} aceita arquivos do tipo {kind}; o arquivo indicado é {contentType}.',
  'balance.insufficient': 'Saldo insuficiente: os fundos disponíveis não cobrem esta solicitação.',
  'spend_cap.reached': 'O limite de gastos diário desta chave de API não cobre esta solicitação.',
  'quote.expired_or_changed':
    'A cotação expirou ou não corresponde a esta solicitação. Solicite uma nova cotação.',
  'quote.incomplete': 'Envie quoteId e expectedCost juntos.',
  'idempotency.conflict':
    'Esta Idempotency-Key já foi usada com outra solicitação. Use uma nova chave para uma nova solicitação.',
  'idempotency.other_api_key': 'Esta Idempotency-Key já foi usada por outra chave de API desta conta.',
  'idempotency.in_progress':
    'Uma solicitação com esta Idempotency-Key ainda está em processamento. Tente novamente com a mesma chave e o mesmo conteúdo.',
  'idempotency.invalid_key': 'O cabeçalho Idempotency-Key deve ter de 1 a 255 caracteres ASCII visíveis.',
  'callback.invalid': 'URL de callback inválida',
  'retention.invalid': 'X-Service-Retention deve ser um número inteiro de segundos maior que 0.',
  'model.unavailable':
    'O modelo {model} não está disponível no momento. Tente novamente mais tarde ou escolha outro modelo.',
  'task.not_found': 'Tarefa não encontrada.',
  'task.error.upstream_failed':
    'O provedor do modelo não conseguiu produzir um resultado. A reserva foi liberada; você pode tentar a tarefa novamente.',
  'task.error.content_rejected': 'A solicitação foi recusada pela política de conteúdo. Nada foi cobrado.',
  'task.error.internal_error':
    'A tarefa falhou por um erro interno. A reserva foi liberada; você pode tentar a tarefa novamente.',
  'task.error.service_interrupted':
    'O serviço parou enquanto respondia (um reinício ou uma falha). Nada foi cobrado e a reserva foi liberada; você pode enviar a solicitação novamente, com a mesma Idempotency-Key.',
  'task.error.input_unavailable':
    'Não foi possível ler um arquivo de mídia da entrada: o arquivo não está mais disponível, ou sua URL foi recusada, não pôde ser alcançada, respondeu com um erro ou é grande demais. Nada foi cobrado.',
  'task.error.input_invalid':
    'Um arquivo de mídia da entrada não é um arquivo compatível do tipo que seu campo aceita. Nada foi cobrado.',
  'task.not_retryable': 'Apenas uma tarefa com falha, expirada ou cancelada pode ser repetida.',
  'task.purged_not_retryable': 'Uma tarefa expurgada não pode ser repetida: o prompt dela não existe mais.',
  'task.not_terminal': 'A tarefa ainda está na fila ou em execução. Aguarde um estado final.',
  'download.not_finished':
    'A tarefa ainda está no estado {state}: os resultados poderão ser baixados quando ela for concluída com sucesso.',
  'download.not_succeeded': 'A tarefa terminou no estado {state}: não há resultados para baixar.',
  'download.outputs_gone':
    'Os resultados desta tarefa não existem mais: ela foi expurgada ou o período de retenção terminou.',
  'download.no_outputs': 'Esta tarefa não tem arquivos de resultado.',
  'download.no_such_output':
    'Esta tarefa não tem resultado com essa chave. As chaves estão em output.assets de recordInfo.',
  'download.output_unavailable': 'Este resultado não pôde ser armazenado: não há arquivo para baixar.',
  'download.output_pending':
    'Este resultado ainda não está pronto. Peça uma URL de download novamente mais tarde.',
  'query.range_too_long': 'O intervalo de datas é maior que {max} dias.',
  'query.invalid_range': 'A data from deve ser anterior à data to.',
  'query.timeout': 'A consulta excedeu seu orçamento de tempo. Tente um intervalo de datas menor.',
  'webhook.endpoint_limit': 'Uma conta pode ter no máximo {limit} endpoints de webhook.',
  'idempotency.required':
    'Esta solicitação precisa de um cabeçalho Idempotency-Key: de 1 a 255 caracteres ASCII visíveis, um novo para cada nova solicitação.',
  'asset.not_found': 'Recurso não encontrado.',
  'asset.file_not_ready':
    'O campo {field} deve ser a URI service://files/... de um arquivo confirmado desta conta, como a confirmação de um upload a retornou.',
  'asset.quota_count':
    'A biblioteca de recursos está cheia: o plano permite {limit} recursos. Exclua recursos ou peça um plano maior.',
  'asset.quota_bytes':
    'Salvar este arquivo ({bytes} bytes) excederia o limite da biblioteca de recursos de {limit} bytes ({used} bytes usados). Exclua recursos ou peça um plano maior.',
  'asset.replay_deleted':
    'Esta Idempotency-Key salvou o recurso {assetId}, que já foi excluído. Use uma nova chave para salvar o arquivo novamente.',
  'entity.not_found': 'Personagem não encontrado.',
  'compat.unsupported_parameter': 'O parâmetro {param} não é suportado.',
  'compat.model_unsupported_parameter': 'O modelo {model} não suporta o parâmetro {param}.',
  'compat.model_unsupported_value': 'O modelo {model} não suporta o valor {value} do parâmetro {param}.',
  'compat.model_no_images':
    'O modelo {model} não aceita imagens. Remova a imagem em {param} ou escolha um modelo que aceite imagens.',
  'chat_completions.max_tokens_conflict':
    'max_tokens e max_completion_tokens têm valores diferentes. Envie apenas um deles.',
  'chat_completions.n_unsupported': 'Apenas uma opção é gerada por requisição: n deve ser 1.',
  'chat_completions.reasoning_conflict':
    'reasoning e reasoning_effort pedem níveis de raciocínio diferentes. Envie apenas um deles.',
  'chat_completions.stream_options_without_stream': 'stream_options só é permitido quando stream é true.',
  'compat.unsupported_type': 'O tipo {type} em {param} não é suportado.',
  'responses.previous_response_id':
    'previous_response_id não é suportado. Envie a conversa completa em input e devolva os resultados das funções como itens function_call_output com o call_id correspondente.',
  'generate_content.unsupported_parameter': 'O parâmetro {param} não é suportado.',
  'generate_content.roles_not_alternating':
    'Os contents devem alternar entre os papéis user e model: {param} repete o papel anterior.',
  'generate_content.unmatched_function_response':
    'A functionResponse {param} não responde a nenhuma functionCall com o mesmo nome do turno model anterior.',
  'generate_content.unsupported_media':
    'O tipo de mídia {mimeType} de {param} não é suportado. Envie imagens como JPEG, PNG, WebP ou GIF.',
  'generate_content.file_uri_not_https': 'A fileUri {param} deve ser uma URL https.',
  'generate_content.conflicting_fields': 'Envie apenas um de {first} e {second}.',
  'generate_content.schema_needs_json': 'Um esquema de resposta exige responseMimeType application/json.',
  'stream.not_text':
    'O modelo {model} não é um modelo de texto: /api/v1/jobs/stream e os endpoints de compatibilidade atendem apenas modelos de texto. Use createTask.',
  'stream.replayed':
    'Esta Idempotency-Key já iniciou um stream para a tarefa {taskId}. A resposta não pode ser enviada novamente e nada é cobrado duas vezes: consulte a tarefa com recordInfo.',
  'compat.model_not_found':
    'O modelo {model} não existe. Os ids de modelo têm a forma publisher/model/chat; o modelo de chat mais próximo é {closest}.',
  'compat.model_not_found_none':
    'O modelo {model} não existe. Os ids de modelo têm a forma publisher/model/chat; liste-os com GET /v1/models?modality=text.',
  'compat.not_chat_model':
    'O modelo {model} não é um modelo de chat: use-o com POST /api/v1/jobs/createTask.',
  'compat.not_video_model':
    'O modelo {model} não é um modelo de vídeo: /v1/videos cria apenas tarefas de modelos de vídeo.',
  'compat.video_not_ready': 'O vídeo {id} ainda não tem conteúdo (status {status}).',
  'media.unsupported_type':
    'O tipo de conteúdo {contentType} não é compatível. Envie uma imagem JPEG, PNG, WebP ou GIF, um vídeo MP4 ou WebM, ou áudio MP3 ou WAV.',
  'media.too_large': 'O arquivo é grande demais: um arquivo {contentType} pode ter no máximo {limit} bytes.',
  'media.empty': 'O arquivo está vazio. Nada foi mantido.',
  'media.pending':
    'O envio de {fileId} ainda não está completo. Envie todos os bytes para a URL de envio com os cabeçalhos indicados e confirme novamente.',
  'media.size_mismatch':
    'O arquivo armazenado tem {actual} bytes, mas o ticket de envio declarou {expected}. Nada foi mantido.',
  'media.type_mismatch': 'O arquivo não é {declared}: seu conteúdo é {detected}. Nada foi mantido.',
  'media.type_unknown':
    'O arquivo não é {declared}: seu conteúdo não é um tipo de mídia compatível. Nada foi mantido.',
  'media.damaged':
    'O arquivo não pode ser lido como {contentType}: está danificado ou incompleto. Nada foi mantido.',
  'media.trailing_data':
    'O arquivo contém mais dados após o fim do seu conteúdo {contentType}, por exemplo outro arquivo anexado. Nada foi mantido.',
  'media.no_duration': 'Não é possível medir a duração do arquivo {contentType}. Nada foi mantido.',
  'media.too_long':
    'A mídia dura {seconds} segundos; são aceitos no máximo {max} segundos. Nada foi mantido.',
  'import.invalid_url':
    'A URL de importação deve ser uma URL https na porta 443, sem nome de usuário ou senha, cujo host resolva apenas para endereços públicos.',
  'import.redirect_refused':
    'A URL de importação redirecionou para um destino não permitido (https na porta 443, apenas endereços públicos) ou redirecionou vezes demais. Nada foi importado.',
  'import.http_status': 'A URL de importação respondeu HTTP {status}. Nada foi importado.',
  'import.unreachable':
    'Não foi possível baixar a URL de importação: a conexão falhou ou expirou. Nada foi importado.',
  'import.too_large': 'O arquivo da URL de importação tem mais de {limit} bytes. Nada foi importado.',
  'import.unsupported_content':
    'O arquivo da URL de importação não é um tipo de mídia compatível: imagens JPEG, PNG, WebP ou GIF, vídeo MP4 ou WebM, áudio MP3 ou WAV. Nada foi importado.',
  'import.deadline':
    'A URL de importação não enviou o arquivo inteiro em {seconds} segundos. Nada foi importado.',
  'import.too_many':
    'Esta chave de API já tem {limit} importações em andamento, o máximo permitido ao mesmo tempo. Tente novamente após {seconds} segundos.',
  'import.client_gone':
    'A importação foi interrompida porque o cliente fechou a conexão. Nada foi importado.',
  'request.invalid_utf8':
    'O corpo da requisição não é UTF-8 válido: o byte na posição {offset} não faz parte de um caractere UTF-8. Envie JSON codificado em UTF-8.',
  'media.no_track':
    'O arquivo {contentType} não contém nenhuma faixa de vídeo ou áudio com duração: não há nada para reproduzir. Nada foi mantido.',
  'media.inconsistent_header':
    'O arquivo não pode ser decodificado como {contentType}: seu cabeçalho indica {field} = {value}, quando é necessário {expected}. Nada foi mantido.',
  'media.too_many_pixels':
    'A imagem tem {width} x {height} pixels, {pixels} pixels no total: mais do que os {max} pixels aceitos, por isso não é decodificada. Nada foi mantido.',
  'group.invalid_multiplier':
    'O multiplicador do grupo deve ser um decimal de {min} a {max} com no máximo {decimals} casas decimais: os preços do grupo são os preços padrão multiplicados por ele e devem continuar acima de zero. Nada foi alterado.',
  'credit.model_unknown':
    'O modelo {model} da concessão (model) não existe no catálogo. Use um id exato da lista de modelos, como publisher/model ou publisher/model/chat. Nada foi adicionado.',
};
