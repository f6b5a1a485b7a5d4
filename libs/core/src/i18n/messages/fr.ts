import type { MessageCatalog } from './en';

export const fr: MessageCatalog = {
  success: 'succès',
  'auth.missing_key': 'Clé API manquante. Envoyez-la sous la forme « Authorization: Bearer <API_KEY> ».',
  'auth.invalid_key': 'Clé API non valide.',
  'auth.unsupported_scheme':
    "Schéma d'autorisation non pris en charge. Envoyez la clé sous la forme « Authorization: Bearer <API_KEY> ».",
  'auth.key_in_query':
    "Les clés API ne sont jamais acceptées dans l'URL. Envoyez la clé dans l'en-tête Authorization.",
  'auth.admin_required': "Un jeton d'administration valide est requis.",
  'auth.console_required': 'Un jeton de session de console valide est requis.',
  'auth.console_session_required': 'Une session de console valide est requise. Reconnectez-vous.',
  'auth.console_link_invalid':
    'Ce lien de connexion est invalide, a expiré ou a déjà été utilisé. Demandez un nouveau lien.',
  'auth.csrf_missing': "Cette requête nécessite l'en-tête X-CSRF-Token de votre session de console.",
  'auth.csrf_invalid': "L'en-tête X-CSRF-Token ne correspond pas à votre session de console.",
  'request.invalid_json': "Le corps de la requête n'est pas un JSON valide.",
  'request.unsupported_media_type':
    'Type de contenu non pris en charge. Envoyez le corps au format application/json.',
  'request.body_too_large': 'Le corps de la requête est trop volumineux. La limite est de {limit} octets.',
  'request.not_found': "La ressource demandée n'existe pas.",
  'request.invalid_field': 'Valeur non valide pour le champ {field}.',
  'request.missing_field': 'Champ obligatoire {field} manquant.',
  'request.unknown_field': 'Champ inconnu {field}.',
  'request.body_required': 'Le corps de la requête doit être un objet JSON.',
  'request.too_deep':
    "Le corps JSON est trop profondément imbriqué : au plus {max} niveaux d'objets et de tableaux.",
  'request.nul_character': "Le champ {field} contient un caractère NUL (U+0000), qui n'est pas accepté.",
  'request.ill_formed_text':
    "Le champ {field} n'est pas un texte Unicode bien formé : il contient un substitut (surrogate) isolé.",
  'request.invalid_url':
    "L'URL de la requête n'est pas valide : un segment du chemin est trop long ou mal encodé en pourcentage.",
  'request.malformed_http':
    "La requête n'a pas pu être lue : sa ligne de requête ou un en-tête n'est pas du HTTP valide (par exemple un caractère de contrôle dans la valeur d'un en-tête).",
  'request.headers_too_large': 'Les en-têtes de la requête sont trop volumineux.',
  'request.timeout': "La requête n'a pas été reçue entièrement à temps.",
  'query.unknown_parameter': 'Paramètre de requête inconnu {name}.',
  'query.repeated_parameter': 'Le paramètre de requête {name} est répété.',
  'query.empty_parameter': 'Le paramètre de requête {name} est vide.',
  'query.cursor_filters_changed':
    "Le curseur a été émis pour d'autres filtres : {name} diffère. Renvoyez les filtres de la première page, ou recommencez sans curseur.",
  'server.error': 'Erreur interne du serveur. Indiquez le request_id lorsque vous signalez le problème.',
  'server.unavailable':
    'Le service est temporairement indisponible. Réessayez en espaçant progressivement les tentatives.',
  'server.draining': "Le service est en cours d'arrêt. Réessayez dans quelques instants.",
  'rate.limited': 'Trop de requêtes. Réessayez dans {seconds} secondes.',
  'account.not_found': 'Compte introuvable.',
  'key.not_found': 'Clé API introuvable.',
  'group.unknown': 'Groupe de comptes inconnu {group}.',
  'language.unsupported':
    'Langue non prise en charge {language}. Langues prises en charge : en, zh-Hant, ja, ko, de, fr, es, pt-BR, ru.',
  'amount.invalid':
    'Montant non valide pour {field} : utilisez un nombre décimal positif en USD comportant au plus 9 décimales.',
  'credit.model_required': "Une attribution de crédit doit indiquer le modèle qu'elle finance (model).",
  'credit.model_only_for_grants':
    'Seule une attribution de crédit peut être limitée à un modèle ; omettez model pour les crédits de portefeuille et promotionnels.',
  'credit.expiry_in_past': "La date d'expiration doit être dans le futur.",
  'model.not_found':
    "Le modèle {model} n'existe pas. Utilisez un identifiant exact de la liste des modèles, par exemple publisher/model ou publisher/model/chat.",
  'model.search_too_long': 'Le texte de recherche est trop long : {max} caractères au maximum.',
  'input.not_object': 'Le champ {field} doit être un objet JSON.',
  'input.wrong_type': 'Le champ {field} doit être de type {type}.',
  'input.not_allowed_value': "Le champ {field} doit prendre l'une de ces valeurs : {allowed}.",
  'input.too_small': 'Le champ {field} doit valoir au moins {limit}.',
  'input.too_large': 'Le champ {field} doit valoir au plus {limit}.',
  'input.not_above': 'Le champ {field} doit être supérieur à {limit}.',
  'input.not_below': 'Le champ {field} doit être inférieur à {limit}.',
  'input.not_multiple': 'Le champ {field} doit être un multiple de {limit}.',
  'input.too_short': 'Le champ {field} doit contenir au moins {limit} caractères.',
  'input.too_long': 'Le champ {field} doit contenir au plus {limit} caractères.',
  'input.too_few_items': 'Le champ {field} doit contenir au moins {limit} éléments.',
  'input.too_many_items': 'Le champ {field} doit contenir au plus {limit} éléments.',
  'input.bad_format': "Le champ {field} n'a pas le format attendu.",
  'input.not_media_uri':
    "Le champ {field} doit être l'URI service:// d'un fichier envoyé (service://files/fil_...) ou une URL https://.",
  'input.media_not_found':
    "Le champ {field} ne désigne aucun fichier prêt de ce compte. Envoyez et validez (commit) le fichier, puis utilisez l'uri renvoyée par la validation.",
  'input.image_url_invalid':
    "L'image en {field} ne peut pas être utilisée ({reason}). Envoyez une URL data: d'une image PNG, JPEG, WebP ou GIF de 10 Mio au plus (base64), une URL https sur le port 443 sans identifiants d'au plus 2048 caractères, ou l'URI service:// d'une image envoyée par ce compte.",
  'input.media_wrong_kind':
    'Le champ {field} accepte les fichiers de type {kind} ; le fichier désigné est {contentType}.',
  'balance.insufficient': 'Solde insuffisant : les fonds disponibles ne couvrent pas cette requête.',
  'spend_cap.reached': 'Le plafond de dépenses quotidien de cette clé API ne couvre pas cette requête.',
  'quote.expired_or_changed':
    'Le devis a expiré ou ne correspond pas à cette requête. Demandez un nouveau devis.',
  'quote.incomplete': 'Envoyez quoteId et expectedCost ensemble.',
  'idempotency.conflict':
    'Cette Idempotency-Key a déjà été utilisée pour une autre requête. Utilisez une nouvelle clé pour une nouvelle requête.',
  'idempotency.other_api_key':
    'Cette Idempotency-Key a déjà été utilisée par une autre clé API de ce compte.',
  'idempotency.in_progress':
    'Une requête avec cette Idempotency-Key est encore en cours de traitement. Réessayez avec la même clé et le même contenu.',
  'idempotency.invalid_key': "L'en-tête Idempotency-Key doit comporter de 1 à 255 caractères ASCII visibles.",
  'callback.invalid': 'URL de rappel invalide',
  'retention.invalid': 'X-Service-Retention doit être un nombre entier de secondes supérieur à 0.',
  'model.unavailable':
    "Le modèle {model} n'est pas disponible pour le moment. Réessayez plus tard ou choisissez un autre modèle.",
  'task.not_found': 'Tâche introuvable.',
  'task.error.upstream_failed':
    "Le fournisseur du modèle n'a pas pu produire de résultat. La réserve a été libérée ; vous pouvez relancer la tâche.",
  'task.error.content_rejected':
    "La requête a été refusée par la politique de contenu. Rien n'a été facturé.",
  'task.error.internal_error':
    "La tâche a échoué à cause d'une erreur interne. La réserve a été libérée ; vous pouvez relancer la tâche.",
  'task.error.service_interrupted':
    "Le service s'est arrêté pendant sa réponse (un redémarrage ou un plantage). Rien n'a été facturé et la réserve a été libérée ; vous pouvez renvoyer la requête, avec la même Idempotency-Key.",
  'task.error.input_unavailable':
    "Un fichier média de l'entrée n'a pas pu être lu : le fichier n'est plus disponible, ou son URL a été refusée, était injoignable, a répondu par une erreur ou est trop volumineuse. Rien n'a été facturé.",
  'task.error.input_invalid':
    "Un fichier média de l'entrée n'est pas un fichier pris en charge du type qu'accepte son champ. Rien n'a été facturé.",
  'task.not_retryable': 'Seule une tâche échouée, expirée ou annulée peut être relancée.',
  'task.purged_not_retryable': "Une tâche purgée ne peut pas être relancée : son prompt n'existe plus.",
  'task.not_terminal': "La tâche est encore en file d'attente ou en cours. Attendez un état final.",
  'download.not_finished':
    "La tâche est encore à l'état {state} : ses résultats pourront être téléchargés une fois qu'elle aura réussi.",
  'download.not_succeeded':
    "La tâche s'est terminée à l'état {state} : elle n'a aucun résultat à télécharger.",
  'download.outputs_gone':
    "Les résultats de cette tâche n'existent plus : elle a été purgée, ou sa durée de conservation est écoulée.",
  'download.no_outputs': "Cette tâche n'a aucun fichier de résultat.",
  'download.no_such_output':
    "Cette tâche n'a aucun résultat avec cette clé. Les clés figurent dans output.assets de recordInfo.",
  'download.output_unavailable': "Ce résultat n'a pas pu être stocké : il n'y a aucun fichier à télécharger.",
  'download.output_pending':
    "Ce résultat n'est pas encore prêt. Redemandez une URL de téléchargement plus tard.",
  'query.range_too_long': 'La plage de dates dépasse {max} jours.',
  'query.invalid_range': 'La date from doit précéder la date to.',
  'query.timeout': 'La requête a dépassé son budget de temps. Essayez une plage de dates plus courte.',
  'webhook.endpoint_limit': 'Un compte peut avoir au plus {limit} points de terminaison webhook.',
  'idempotency.required':
    'Cette requête exige un en-tête Idempotency-Key : 1 à 255 caractères ASCII visibles, un nouveau pour chaque nouvelle requête.',
  'asset.not_found': 'Ressource introuvable.',
  'asset.file_not_ready':
    "Le champ {field} doit être l'URI service://files/... d'un fichier validé de ce compte, telle que la validation d'un téléversement l'a renvoyée.",
  'asset.quota_count':
    'La bibliothèque de ressources est pleine : son forfait autorise {limit} ressources. Supprimez des ressources ou demandez un forfait plus grand.',
  'asset.quota_bytes':
    "L'enregistrement de ce fichier ({bytes} octets) dépasserait la limite de la bibliothèque de ressources de {limit} octets ({used} octets utilisés). Supprimez des ressources ou demandez un forfait plus grand.",
  'asset.replay_deleted':
    'Cette Idempotency-Key a enregistré la ressource {assetId}, qui a depuis été supprimée. Utilisez une nouvelle clé pour enregistrer à nouveau le fichier.',
  'entity.not_found': 'Personnage introuvable.',
  'compat.unsupported_parameter': "Le paramètre {param} n'est pas pris en charge.",
  'compat.model_unsupported_parameter': 'Le modèle {model} ne prend pas en charge le paramètre {param}.',
  'compat.model_unsupported_value':
    'Le modèle {model} ne prend pas en charge la valeur {value} du paramètre {param}.',
  'compat.model_no_images':
    "Le modèle {model} n'accepte pas les images. Retirez l'image en {param} ou choisissez un modèle qui accepte les images.",
  'chat_completions.max_tokens_conflict':
    "max_tokens et max_completion_tokens ont des valeurs différentes. N'envoyez que l'un des deux.",
  'chat_completions.n_unsupported': 'Une seule réponse est générée par requête : n doit valoir 1.',
  'chat_completions.reasoning_conflict':
    "reasoning et reasoning_effort demandent des niveaux de raisonnement différents. N'envoyez que l'un des deux.",
  'chat_completions.stream_options_without_stream':
    "stream_options n'est autorisé que lorsque stream vaut true.",
  'compat.unsupported_type': "Le type {type} à {param} n'est pas pris en charge.",
  'responses.previous_response_id':
    "previous_response_id n'est pas pris en charge. Envoyez la conversation complète dans input et renvoyez les résultats des fonctions sous forme d'éléments function_call_output avec le call_id correspondant.",
  'generate_content.unsupported_parameter': "Le paramètre {param} n'est pas pris en charge.",
  'generate_content.roles_not_alternating':
    'Les contents doivent alterner entre les rôles user et model : {param} répète le rôle précédent.',
  'generate_content.unmatched_function_response':
    'La functionResponse {param} ne répond à aucun functionCall du même nom dans le tour model précédent.',
  'generate_content.unsupported_media':
    "Le type de média {mimeType} de {param} n'est pas pris en charge. Envoyez les images en JPEG, PNG, WebP ou GIF.",
  'generate_content.file_uri_not_https': 'La fileUri {param} doit être une URL https.',
  'generate_content.conflicting_fields': "N'envoyez qu'un seul de {first} et {second}.",
  'generate_content.schema_needs_json': 'Un schéma de réponse exige responseMimeType application/json.',
  'stream.not_text':
    "Le modèle {model} n'est pas un modèle de texte : /api/v1/jobs/stream et les points d'accès de compatibilité ne servent que des modèles de texte. Utilisez createTask.",
  'stream.replayed':
    "Cette Idempotency-Key a déjà lancé un flux pour la tâche {taskId}. Sa réponse ne peut pas être renvoyée et rien n'est facturé deux fois : lisez la tâche avec recordInfo.",
  'compat.model_not_found':
    "Le modèle {model} n'existe pas. Les identifiants de modèle ont la forme publisher/model/chat ; le modèle de chat le plus proche est {closest}.",
  'compat.model_not_found_none':
    "Le modèle {model} n'existe pas. Les identifiants de modèle ont la forme publisher/model/chat ; listez-les avec GET /v1/models?modality=text.",
  'compat.not_chat_model':
    "Le modèle {model} n'est pas un modèle de chat : utilisez-le avec POST /api/v1/jobs/createTask.",
  'compat.not_video_model':
    "Le modèle {model} n'est pas un modèle vidéo : /v1/videos ne crée que des tâches de modèles vidéo.",
  'compat.video_not_ready': "La vidéo {id} n'a pas encore de contenu (statut {status}).",
  'media.unsupported_type':
    'Le type de contenu {contentType} n’est pas pris en charge. Envoyez une image JPEG, PNG, WebP ou GIF, une vidéo MP4 ou WebM, ou un audio MP3 ou WAV.',
  'media.too_large':
    'Le fichier est trop volumineux : un fichier {contentType} peut compter au plus {limit} octets.',
  'media.empty': 'Le fichier est vide. Rien n’a été conservé.',
  'media.pending':
    'L’envoi de {fileId} n’est pas encore terminé. Envoyez tous les octets à l’URL d’envoi avec ses en-têtes, puis validez à nouveau.',
  'media.size_mismatch':
    'Le fichier stocké compte {actual} octets, mais le ticket d’envoi en annonçait {expected}. Rien n’a été conservé.',
  'media.type_mismatch':
    'Le fichier n’est pas {declared} : son contenu est {detected}. Rien n’a été conservé.',
  'media.type_unknown':
    'Le fichier n’est pas {declared} : son contenu n’est pas un type de média pris en charge. Rien n’a été conservé.',
  'media.damaged':
    'Le fichier ne peut pas être lu comme {contentType} : il est endommagé ou incomplet. Rien n’a été conservé.',
  'media.trailing_data':
    'Le fichier contient d’autres données après la fin de son contenu {contentType}, par exemple un autre fichier ajouté à la suite. Rien n’a été conservé.',
  'media.no_duration': 'La durée du fichier {contentType} ne peut pas être mesurée. Rien n’a été conservé.',
  'media.too_long':
    'Le média dure {seconds} secondes ; au plus {max} secondes sont acceptées. Rien n’a été conservé.',
  'import.invalid_url':
    'L’URL d’importation doit être une URL https sur le port 443, sans nom d’utilisateur ni mot de passe, dont l’hôte ne se résout qu’en adresses publiques.',
  'import.redirect_refused':
    'L’URL d’importation a redirigé vers une destination non autorisée (https sur le port 443, adresses publiques uniquement) ou a redirigé trop souvent. Rien n’a été importé.',
  'import.http_status': 'L’URL d’importation a répondu HTTP {status}. Rien n’a été importé.',
  'import.unreachable':
    'L’URL d’importation n’a pas pu être récupérée : la connexion a échoué ou a expiré. Rien n’a été importé.',
  'import.too_large': 'Le fichier de l’URL d’importation dépasse {limit} octets. Rien n’a été importé.',
  'import.unsupported_content':
    'Le fichier de l’URL d’importation n’est pas d’un type de média pris en charge : images JPEG, PNG, WebP ou GIF, vidéo MP4 ou WebM, audio MP3 ou WAV. Rien n’a été importé.',
  'import.deadline':
    'L’URL d’importation n’a pas envoyé le fichier entier en {seconds} secondes. Rien n’a été importé.',
  'import.too_many':
    'Cette clé d’API a déjà {limit} importations en cours, le maximum autorisé à la fois. Réessayez dans {seconds} secondes.',
  'import.client_gone':
    'L’importation a été arrêtée car le client a fermé la connexion. Rien n’a été importé.',
  'request.invalid_utf8':
    'Le corps de la requête n’est pas de l’UTF-8 valide : l’octet à la position {offset} ne fait partie d’aucun caractère UTF-8. Envoyez du JSON encodé en UTF-8.',
  'media.no_track':
    'Le fichier {contentType} ne contient aucune piste vidéo ou audio ayant une durée : il n’y a rien à lire. Rien n’a été conservé.',
  'media.inconsistent_header':
    'Le fichier ne peut pas être décodé comme {contentType} : son en-tête indique {field} = {value}, alors qu’il faut {expected}. Rien n’a été conservé.',
  'media.too_many_pixels':
    'L’image fait {width} x {height} pixels, soit {pixels} pixels en tout : plus que les {max} pixels acceptés, elle n’est donc pas décodée. Rien n’a été conservé.',
  'group.invalid_multiplier':
    'Le multiplicateur du groupe doit être un nombre décimal de {min} à {max} avec au plus {decimals} décimales : les prix du groupe sont les prix standard multipliés par lui et doivent rester supérieurs à zéro. Rien n’a été modifié.',
  'credit.model_unknown':
    'Le modèle {model} de l’octroi (model) n’existe pas dans le catalogue. Utilisez un id exact de la liste des modèles, comme publisher/model ou publisher/model/chat. Rien n’a été ajouté.',
};
