import type { MessageCatalog } from './en';

export const de: MessageCatalog = {
  success: 'Erfolg',
  'auth.missing_key': 'API-Schlüssel fehlt. Senden Sie ihn als „Authorization: Bearer <API_KEY>“.',
  'auth.invalid_key': 'Ungültiger API-Schlüssel.',
  'auth.unsupported_scheme':
    'Nicht unterstütztes Autorisierungsschema. Senden Sie den Schlüssel als „Authorization: Bearer <API_KEY>“.',
  'auth.key_in_query':
    'API-Schlüssel werden niemals in der URL akzeptiert. Senden Sie den Schlüssel im Authorization-Header.',
  'auth.admin_required': 'Ein gültiges Admin-Token ist erforderlich.',
  'auth.console_required': 'Ein gültiges Konsolen-Sitzungstoken ist erforderlich.',
  'auth.console_session_required':
    'Eine gültige Konsolensitzung ist erforderlich. Melden Sie sich erneut an.',
  'auth.console_link_invalid':
    'Dieser Anmeldelink ist ungültig, abgelaufen oder wurde bereits verwendet. Fordern Sie einen neuen Link an.',
  'auth.csrf_missing': 'Diese Anfrage benötigt den Header X-CSRF-Token Ihrer Konsolensitzung.',
  'auth.csrf_invalid': 'Der Header X-CSRF-Token passt nicht zu Ihrer Konsolensitzung.',
  'request.invalid_json': 'Der Anfragetext ist kein gültiges JSON.',
  'request.unsupported_media_type':
    'Nicht unterstützter Inhaltstyp. Senden Sie den Anfragetext als application/json.',
  'request.body_too_large': 'Der Anfragetext ist zu groß. Das Limit beträgt {limit} Byte.',
  'request.not_found': 'Die angeforderte Ressource existiert nicht.',
  'request.invalid_field': 'Ungültiger Wert für das Feld {field}.',
  'request.missing_field': 'Das Pflichtfeld {field} fehlt.',
  'request.unknown_field': 'Unbekanntes Feld {field}.',
  'request.body_required': 'Als Anfragetext ist ein JSON-Objekt erforderlich.',
  'request.too_deep':
    'Der JSON-Anfragetext ist zu tief verschachtelt: höchstens {max} Ebenen aus Objekten und Arrays.',
  'request.nul_character': 'Das Feld {field} enthält ein NUL-Zeichen (U+0000), das nicht akzeptiert wird.',
  'request.ill_formed_text':
    'Das Feld {field} ist kein wohlgeformtes Unicode: Es enthält ein einzelnes Surrogat.',
  'request.invalid_url':
    'Die Anfrage-URL ist ungültig: Ein Pfadsegment ist zu lang oder nicht korrekt prozentkodiert.',
  'request.malformed_http':
    'Die Anfrage konnte nicht gelesen werden: Die Anfragezeile oder ein Header ist kein gültiges HTTP (zum Beispiel ein Steuerzeichen in einem Header-Wert).',
  'request.headers_too_large': 'Die Header der Anfrage sind zu groß.',
  'request.timeout': 'Die Anfrage ist nicht rechtzeitig vollständig eingegangen.',
  'query.unknown_parameter': 'Unbekannter Abfrageparameter {name}.',
  'query.repeated_parameter': 'Der Abfrageparameter {name} ist mehrfach angegeben.',
  'query.empty_parameter': 'Der Abfrageparameter {name} ist leer.',
  'query.cursor_filters_changed':
    'Der Cursor wurde für andere Filter ausgegeben: {name} weicht ab. Senden Sie die Filter der ersten Seite erneut oder beginnen Sie ohne Cursor von vorn.',
  'server.error': 'Interner Serverfehler. Geben Sie bei der Meldung des Problems die request_id an.',
  'server.unavailable':
    'Der Dienst ist vorübergehend nicht verfügbar. Wiederholen Sie die Anfrage mit zunehmenden Wartezeiten.',
  'server.draining': 'Der Dienst wird heruntergefahren. Versuchen Sie es in Kürze erneut.',
  'rate.limited': 'Zu viele Anfragen. Versuchen Sie es in {seconds} Sekunden erneut.',
  'account.not_found': 'Konto nicht gefunden.',
  'key.not_found': 'API-Schlüssel nicht gefunden.',
  'group.unknown': 'Unbekannte Kontogruppe {group}.',
  'language.unsupported':
    'Nicht unterstützte Sprache {language}. Unterstützt: en, zh-Hant, ja, ko, de, fr, es, pt-BR, ru.',
  'amount.invalid':
    'Ungültiger Betrag für {field}: Verwenden Sie einen positiven USD-Dezimalwert mit höchstens 9 Nachkommastellen.',
  'credit.model_required': 'Eine Guthabenzuteilung muss das Modell angeben, für das sie gilt (model).',
  'credit.model_only_for_grants':
    'Nur eine Guthabenzuteilung kann auf ein Modell beschränkt werden; lassen Sie model bei Wallet- und Aktionsguthaben weg.',
  'credit.expiry_in_past': 'Der Ablaufzeitpunkt muss in der Zukunft liegen.',
  'model.not_found':
    'Das Modell {model} existiert nicht. Verwenden Sie eine exakte ID aus der Modellliste, etwa publisher/model oder publisher/model/chat.',
  'model.search_too_long': 'Der Suchtext ist zu lang: höchstens {max} Zeichen.',
  'input.not_object': 'Das Feld {field} muss ein JSON-Objekt sein.',
  'input.wrong_type': 'Das Feld {field} muss vom Typ {type} sein.',
  'input.not_allowed_value': 'Das Feld {field} muss einen dieser Werte haben: {allowed}.',
  'input.too_small': 'Das Feld {field} muss mindestens {limit} sein.',
  'input.too_large': 'Das Feld {field} darf höchstens {limit} sein.',
  'input.not_above': 'Das Feld {field} muss größer als {limit} sein.',
  'input.not_below': 'Das Feld {field} muss kleiner als {limit} sein.',
  'input.not_multiple': 'Das Feld {field} muss ein Vielfaches von {limit} sein.',
  'input.too_short': 'Das Feld {field} muss mindestens {limit} Zeichen lang sein.',
  'input.too_long': 'Das Feld {field} darf höchstens {limit} Zeichen lang sein.',
  'input.too_few_items': 'Das Feld {field} muss mindestens {limit} Einträge haben.',
  'input.too_many_items': 'Das Feld {field} darf höchstens {limit} Einträge haben.',
  'input.bad_format': 'Das Feld {field} hat nicht das erwartete Format.',
  'input.not_media_uri':
    'Das Feld {field} muss die service://-URI einer hochgeladenen Datei (service://files/fil_...) oder eine https://-URL sein.',
  'input.media_not_found':
    'Das Feld {field} nennt keine bereite Datei dieses Kontos. Laden Sie die Datei hoch, bestätigen Sie sie (commit) und verwenden Sie die uri aus der Antwort.',
  'input.image_url_invalid':
    'Das Bild unter {field} kann nicht verwendet werden ({reason}). Senden Sie eine data:-URL eines PNG-, JPEG-, WebP- oder GIF-Bildes von höchstens 10 MiB (base64), eine https-URL auf Port 443 ohne Benutzerangaben mit höchstens 2048 Zeichen oder die service://-URI eines hochgeladenen Bildes dieses Kontos.',
  'input.media_wrong_kind':
    'Das Feld {field} nimmt Dateien der Art {kind}; die genannte Datei ist {contentType}.',
  'balance.insufficient': 'Unzureichendes Guthaben: Die verfügbaren Mittel decken diese Anfrage nicht.',
  'spend_cap.reached': 'Das tägliche Ausgabenlimit dieses API-Schlüssels deckt diese Anfrage nicht.',
  'quote.expired_or_changed':
    'Das Angebot ist abgelaufen oder passt nicht zu dieser Anfrage. Fordern Sie ein neues Angebot an.',
  'quote.incomplete': 'Senden Sie quoteId und expectedCost zusammen.',
  'idempotency.conflict':
    'Dieser Idempotency-Key wurde bereits für eine andere Anfrage verwendet. Verwenden Sie für eine neue Anfrage einen neuen Schlüssel.',
  'idempotency.other_api_key':
    'Dieser Idempotency-Key wurde bereits von einem anderen API-Schlüssel dieses Kontos verwendet.',
  'idempotency.in_progress':
    'Eine Anfrage mit diesem Idempotency-Key wird noch verarbeitet. Wiederholen Sie sie mit demselben Schlüssel und Inhalt.',
  'idempotency.invalid_key':
    'Der Header Idempotency-Key muss aus 1 bis 255 sichtbaren ASCII-Zeichen bestehen.',
  'callback.invalid': 'Ungültige Callback-URL',
  'retention.invalid': 'X-Service-Retention muss eine ganze Zahl von Sekunden größer als 0 sein.',
  'model.unavailable':
    'Das Modell {model} ist derzeit nicht verfügbar. Versuchen Sie es später erneut oder wählen Sie ein anderes Modell.',
  'task.not_found': 'Aufgabe nicht gefunden.',
  'task.error.upstream_failed':
    'Der Modellanbieter konnte kein Ergebnis erzeugen. Die Reservierung wurde freigegeben; Sie können die Aufgabe wiederholen.',
  'task.error.content_rejected':
    'Die Anfrage wurde von der Inhaltsrichtlinie abgelehnt. Es wurde nichts berechnet.',
  'task.error.internal_error':
    'Die Aufgabe ist wegen eines internen Fehlers fehlgeschlagen. Die Reservierung wurde freigegeben; Sie können die Aufgabe wiederholen.',
  'task.error.service_interrupted':
    'Der Dienst wurde während der Antwort beendet (ein Neustart oder ein Absturz). Es wurde nichts berechnet und die Reservierung wurde freigegeben; Sie können die Anfrage erneut senden, auch mit demselben Idempotency-Key.',
  'task.error.input_unavailable':
    'Eine Mediendatei der Eingabe konnte nicht gelesen werden: Die Datei ist nicht mehr verfügbar, oder ihre URL wurde abgelehnt, war nicht erreichbar, antwortete mit einem Fehler oder ist zu groß. Es wurde nichts berechnet.',
  'task.error.input_invalid':
    'Eine Mediendatei der Eingabe ist keine unterstützte Datei der Art, die ihr Feld erwartet. Es wurde nichts berechnet.',
  'task.not_retryable':
    'Nur eine fehlgeschlagene, abgelaufene oder abgebrochene Aufgabe kann wiederholt werden.',
  'task.purged_not_retryable':
    'Eine bereinigte (purge) Aufgabe kann nicht wiederholt werden: Ihr Prompt existiert nicht mehr.',
  'task.not_terminal':
    'Die Aufgabe ist noch in der Warteschlange oder läuft. Warten Sie auf einen Endzustand.',
  'download.not_finished':
    'Die Aufgabe ist noch {state}: Ihre Ergebnisse können heruntergeladen werden, sobald sie erfolgreich abgeschlossen ist.',
  'download.not_succeeded': 'Die Aufgabe endete mit {state}: Sie hat keine Ergebnisse zum Herunterladen.',
  'download.outputs_gone':
    'Die Ergebnisse dieser Aufgabe existieren nicht mehr: Sie wurde gelöscht (purge) oder ihre Aufbewahrungsfrist ist abgelaufen.',
  'download.no_outputs': 'Diese Aufgabe hat keine Ergebnisdateien.',
  'download.no_such_output':
    'Diese Aufgabe hat kein Ergebnis mit diesem Schlüssel. Die Schlüssel stehen in output.assets von recordInfo.',
  'download.output_unavailable':
    'Dieses Ergebnis konnte nicht gespeichert werden: Es gibt keine Datei zum Herunterladen.',
  'download.output_pending':
    'Dieses Ergebnis ist noch nicht bereit. Fordern Sie später erneut eine Download-URL an.',
  'query.range_too_long': 'Der Datumsbereich ist länger als {max} Tage.',
  'query.invalid_range': 'Das Datum from muss vor dem Datum to liegen.',
  'query.timeout':
    'Die Abfrage hat ihr Zeitbudget überschritten. Versuchen Sie einen kürzeren Datumsbereich.',
  'webhook.endpoint_limit': 'Ein Konto kann höchstens {limit} Webhook-Endpunkte haben.',
  'idempotency.required':
    'Diese Anfrage braucht einen Idempotency-Key-Header: 1 bis 255 sichtbare ASCII-Zeichen, für jede neue Anfrage ein neuer.',
  'asset.not_found': 'Asset nicht gefunden.',
  'asset.file_not_ready':
    'Das Feld {field} muss die service://files/...-URI einer bestätigten Datei dieses Kontos sein, wie sie die Bestätigung eines Uploads zurückgegeben hat.',
  'asset.quota_count':
    'Die Asset-Bibliothek ist voll: Ihr Tarif erlaubt {limit} Assets. Löschen Sie Assets oder fragen Sie nach einem größeren Tarif.',
  'asset.quota_bytes':
    'Das Speichern dieser Datei ({bytes} Byte) würde das Limit der Asset-Bibliothek von {limit} Byte überschreiten ({used} Byte belegt). Löschen Sie Assets oder fragen Sie nach einem größeren Tarif.',
  'asset.replay_deleted':
    'Dieser Idempotency-Key hat das Asset {assetId} gespeichert, das inzwischen gelöscht wurde. Verwenden Sie einen neuen Schlüssel, um die Datei erneut zu speichern.',
  'entity.not_found': 'Figur nicht gefunden.',
  'compat.unsupported_parameter': 'Der Parameter {param} wird nicht unterstützt.',
  'compat.model_unsupported_parameter': 'Das Modell {model} unterstützt den Parameter {param} nicht.',
  'compat.model_unsupported_value':
    'Das Modell {model} unterstützt den Wert {value} des Parameters {param} nicht.',
  'compat.model_no_images':
    'Das Modell {model} akzeptiert keine Bilder. Entfernen Sie das Bild bei {param} oder wählen Sie ein Modell, das Bilder akzeptiert.',
  'chat_completions.max_tokens_conflict':
    'max_tokens und max_completion_tokens haben unterschiedliche Werte. Senden Sie nur einen davon.',
  'chat_completions.n_unsupported': 'Pro Anfrage wird nur eine Antwort erzeugt: n muss 1 sein.',
  'chat_completions.reasoning_conflict':
    'reasoning und reasoning_effort verlangen unterschiedliche Reasoning-Stufen. Senden Sie nur eines davon.',
  'chat_completions.stream_options_without_stream': 'stream_options ist nur erlaubt, wenn stream true ist.',
  'compat.unsupported_type': 'Der Typ {type} bei {param} wird nicht unterstützt.',
  'responses.previous_response_id':
    'previous_response_id wird nicht unterstützt. Senden Sie die vollständige Unterhaltung in input und geben Sie Funktionsergebnisse als function_call_output-Elemente mit der passenden call_id zurück.',
  'generate_content.unsupported_parameter': 'Der Parameter {param} wird nicht unterstützt.',
  'generate_content.roles_not_alternating':
    'Die contents müssen zwischen den Rollen user und model abwechseln: {param} wiederholt die vorherige Rolle.',
  'generate_content.unmatched_function_response':
    'Die functionResponse {param} beantwortet keinen functionCall gleichen Namens aus dem vorherigen model-Zug.',
  'generate_content.unsupported_media':
    'Der Medientyp {mimeType} von {param} wird nicht unterstützt. Senden Sie Bilder als JPEG, PNG, WebP oder GIF.',
  'generate_content.file_uri_not_https': 'Die fileUri {param} muss eine https-URL sein.',
  'generate_content.conflicting_fields': 'Senden Sie nur eines von {first} und {second}.',
  'generate_content.schema_needs_json': 'Ein Antwortschema erfordert responseMimeType application/json.',
  'stream.not_text':
    'Das Modell {model} ist kein Textmodell: /api/v1/jobs/stream und die Kompatibilitätsendpunkte bedienen nur Textmodelle. Verwenden Sie createTask.',
  'stream.replayed':
    'Dieser Idempotency-Key hat bereits einen Stream für die Aufgabe {taskId} gestartet. Seine Antwort kann nicht erneut gesendet werden und nichts wird doppelt berechnet: Lesen Sie die Aufgabe mit recordInfo.',
  'compat.model_not_found':
    'Das Modell {model} existiert nicht. Modell-IDs haben die Form publisher/model/chat; das nächstliegende Chatmodell ist {closest}.',
  'compat.model_not_found_none':
    'Das Modell {model} existiert nicht. Modell-IDs haben die Form publisher/model/chat; listen Sie sie mit GET /v1/models?modality=text auf.',
  'compat.not_chat_model':
    'Das Modell {model} ist kein Chatmodell: Verwenden Sie es mit POST /api/v1/jobs/createTask.',
  'compat.not_video_model':
    'Das Modell {model} ist kein Videomodell: /v1/videos erstellt nur Aufgaben von Videomodellen.',
  'compat.video_not_ready': 'Das Video {id} hat noch keinen Inhalt (Status {status}).',
  'media.unsupported_type':
    'Der Inhaltstyp {contentType} wird nicht unterstützt. Laden Sie ein JPEG-, PNG-, WebP- oder GIF-Bild, ein MP4- oder WebM-Video oder MP3- oder WAV-Audio hoch.',
  'media.too_large': 'Die Datei ist zu groß: Eine {contentType}-Datei darf höchstens {limit} Byte haben.',
  'media.empty': 'Die Datei ist leer. Es wurde nichts gespeichert.',
  'media.pending':
    'Der Upload von {fileId} ist noch nicht vollständig. Senden Sie alle Bytes mit den angegebenen Headern an die Upload-URL und bestätigen Sie dann erneut.',
  'media.size_mismatch':
    'Die gespeicherte Datei hat {actual} Byte, das Upload-Ticket hat jedoch {expected} angegeben. Es wurde nichts gespeichert.',
  'media.type_mismatch':
    'Die Datei ist nicht {declared}: Ihr Inhalt ist {detected}. Es wurde nichts gespeichert.',
  'media.type_unknown':
    'Die Datei ist nicht {declared}: Ihr Inhalt ist kein unterstützter Medientyp. Es wurde nichts gespeichert.',
  'media.damaged':
    'Die Datei kann nicht als {contentType} gelesen werden: Sie ist beschädigt oder unvollständig. Es wurde nichts gespeichert.',
  'media.trailing_data':
    'Die Datei enthält nach dem Ende ihres {contentType}-Inhalts weitere Daten, zum Beispiel eine angehängte zweite Datei. Es wurde nichts gespeichert.',
  'media.no_duration':
    'Die Dauer der {contentType}-Datei kann nicht gemessen werden. Es wurde nichts gespeichert.',
  'media.too_long':
    'Das Medium dauert {seconds} Sekunden; höchstens {max} Sekunden werden angenommen. Es wurde nichts gespeichert.',
  'import.invalid_url':
    'Die Import-URL muss eine https-URL auf Port 443 ohne Benutzername oder Passwort sein, deren Host nur zu öffentlichen Adressen aufgelöst wird.',
  'import.redirect_refused':
    'Die Import-URL hat an ein nicht erlaubtes Ziel weitergeleitet (nur https auf Port 443 und öffentliche Adressen) oder zu oft weitergeleitet. Es wurde nichts importiert.',
  'import.http_status': 'Die Import-URL hat mit HTTP {status} geantwortet. Es wurde nichts importiert.',
  'import.unreachable':
    'Die Import-URL konnte nicht abgerufen werden: Die Verbindung ist fehlgeschlagen oder hat das Zeitlimit überschritten. Es wurde nichts importiert.',
  'import.too_large':
    'Die Datei unter der Import-URL ist größer als {limit} Byte. Es wurde nichts importiert.',
  'import.unsupported_content':
    'Die Datei unter der Import-URL hat keinen unterstützten Medientyp: JPEG-, PNG-, WebP- oder GIF-Bilder, MP4- oder WebM-Video, MP3- oder WAV-Audio. Es wurde nichts importiert.',
  'import.deadline':
    'Die Import-URL hat die Datei nicht innerhalb von {seconds} Sekunden vollständig gesendet. Es wurde nichts importiert.',
  'import.too_many':
    'Dieser API-Schlüssel hat bereits {limit} laufende Importe, so viele wie gleichzeitig erlaubt. Versuchen Sie es nach {seconds} Sekunden erneut.',
  'import.client_gone':
    'Der Import wurde abgebrochen, weil der Client die Verbindung geschlossen hat. Es wurde nichts importiert.',
  'request.invalid_utf8':
    'Der Anfragetext ist kein gültiges UTF-8: Das Byte an Position {offset} gehört zu keinem UTF-8-Zeichen. Senden Sie JSON in UTF-8-Kodierung.',
  'media.no_track':
    'Die {contentType}-Datei enthält keine Video- oder Audiospur mit einer Dauer: Es gibt darin nichts abzuspielen. Es wurde nichts gespeichert.',
  'media.inconsistent_header':
    'Die Datei kann nicht als {contentType} dekodiert werden: Ihr Header gibt {field} = {value} an, erforderlich ist {expected}. Es wurde nichts gespeichert.',
  'media.too_many_pixels':
    'Das Bild hat {width} x {height} Pixel, insgesamt {pixels} Pixel: mehr als die akzeptierten {max} Pixel, daher wird es nicht dekodiert. Es wurde nichts gespeichert.',
  'group.invalid_multiplier':
    'Der Gruppenmultiplikator muss eine Dezimalzahl von {min} bis {max} mit höchstens {decimals} Nachkommastellen sein: Die Preise der Gruppe sind die Standardpreise mal diesem Wert und müssen über null bleiben. Es wurde nichts geändert.',
  'credit.model_unknown':
    'Das Modell {model} der Gutschrift (model) existiert nicht im Katalog. Verwenden Sie eine genaue ID aus der Modellliste, etwa publisher/model oder publisher/model/chat. Es wurde nichts gutgeschrieben.',
};
