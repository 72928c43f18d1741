import { defineTexts } from '../../lib/feature-texts';

/** The user agreement and privacy notice (/agreement, /register/userAgreement; /agreementen shows the English one). */
export const agreementTexts = defineTexts({
  en: {
    'agreement.title': 'User agreement and privacy notice',
    'agreement.intro':
      'This agreement applies to everyone who uses the Sunward console and its apps. Please read it before you register; by registering you accept it.',
    'agreement.s1t': '1. The service',
    'agreement.s1':
      'Sunward lets you monitor photovoltaic and energy-storage plants and operate their devices remotely. We keep improving the service and announce planned maintenance in advance where we can.',
    'agreement.s2t': '2. Your account',
    'agreement.s2':
      'Keep your password to yourself and turn on two-factor sign-in if you can. You are responsible for what is done with your account. Tell your administrator or the operator at once if you suspect misuse.',
    'agreement.s3t': '3. Acceptable use',
    'agreement.s3':
      'Operate only the plants and devices you are authorised to. Remote commands such as shutdown, parameter changes or firmware upgrades act on real equipment: follow local safety rules and the manufacturer’s instructions. Do not try to reach other organisations’ data or disturb the service.',
    'agreement.s4t': '4. Data we process',
    'agreement.s4':
      'Account data (name, e-mail, phone), sign-in records (time, address, device) and the measurements your devices send. We use them only to provide the service, keep it secure and meet legal duties. We do not sell them.',
    'agreement.s5t': '5. Sharing and keeping data',
    'agreement.s5':
      'Your data is visible to the people you or your company give access, and to the operators who maintain the service. Raw measurements are kept for a limited time, energy totals as long as the plant uses the service. Account data is deleted when the account is closed, except what the law requires us to keep.',
    'agreement.s6t': '6. Your rights',
    'agreement.s6':
      'You may see, correct and export your data and close your account. Ask your company administrator or the platform operator.',
    'agreement.s7t': '7. Liability and changes',
    'agreement.s7':
      'The service is provided as it is: readings can arrive late or be incomplete and do not replace protection on site. We tell you about important changes to this agreement before they apply; using the service afterwards means you accept them.',
    'agreement.english': 'Read in English',
    'agreement.local': 'Read in your language',
  },
  cn: {
    'agreement.title': '用户协议和隐私声明',
    'agreement.intro': '本协议适用于 Sunward 控制台及其应用的所有用户。请在注册前阅读；注册即表示您接受本协议。',
    'agreement.s1t': '1. 服务内容',
    'agreement.s1': 'Sunward 帮助您监控光伏和储能电站，并远程操作其中的设备。我们会不断改进服务，并尽可能提前公告计划维护。',
    'agreement.s2t': '2. 您的账号',
    'agreement.s2': '请妥善保管密码，并尽可能开启双重验证登录。您对使用您账号进行的操作负责。如怀疑账号被滥用，请立即告知管理员或运营方。',
    'agreement.s3t': '3. 使用规范',
    'agreement.s3':
      '仅操作您有权操作的电站和设备。关机、修改参数或固件升级等远程指令会作用于真实设备：请遵守当地安全规定和制造商的说明。不得试图访问其他组织的数据或干扰服务。',
    'agreement.s4t': '4. 我们处理的数据',
    'agreement.s4':
      '账号数据（姓名、电子邮箱、电话）、登录记录（时间、地址、设备）以及您的设备上传的测量数据。我们仅将其用于提供服务、保障安全和履行法定义务，绝不出售。',
    'agreement.s5t': '5. 数据共享与保存',
    'agreement.s5':
      '您的数据对您或您的公司授权的人员以及维护服务的运营人员可见。原始测量数据保存有限时间，发电量汇总在电站使用服务期间一直保存。注销账号后将删除账号数据，法律要求保留的除外。',
    'agreement.s6t': '6. 您的权利',
    'agreement.s6': '您可以查看、更正和导出您的数据，也可以注销账号。请联系您的公司管理员或平台运营方。',
    'agreement.s7t': '7. 责任与变更',
    'agreement.s7':
      '服务按现状提供：数据可能延迟或不完整，不能替代现场保护。本协议如有重要变更，我们会在生效前通知您；此后继续使用服务即表示您接受变更。',
    'agreement.english': '阅读英文版',
    'agreement.local': '阅读您的语言版本',
  },
  vi: {
    'agreement.title': 'Thỏa thuận người dùng và thông báo quyền riêng tư',
    'agreement.intro':
      'Thỏa thuận này áp dụng cho mọi người dùng bảng điều khiển Sunward và các ứng dụng của nó. Vui lòng đọc trước khi đăng ký; khi đăng ký, bạn chấp nhận thỏa thuận này.',
    'agreement.s1t': '1. Dịch vụ',
    'agreement.s1':
      'Sunward giúp bạn giám sát các nhà máy điện mặt trời và lưu trữ năng lượng và điều khiển thiết bị từ xa. Chúng tôi liên tục cải tiến dịch vụ và thông báo trước các đợt bảo trì khi có thể.',
    'agreement.s2t': '2. Tài khoản của bạn',
    'agreement.s2':
      'Giữ bí mật mật khẩu và bật đăng nhập hai lớp nếu có thể. Bạn chịu trách nhiệm về những gì được thực hiện bằng tài khoản của mình. Hãy báo ngay cho quản trị viên hoặc nhà vận hành nếu nghi ngờ bị lạm dụng.',
    'agreement.s3t': '3. Sử dụng hợp lệ',
    'agreement.s3':
      'Chỉ điều khiển các nhà máy và thiết bị bạn được phép. Các lệnh từ xa như tắt máy, đổi thông số hay nâng cấp firmware tác động lên thiết bị thật: hãy tuân thủ quy định an toàn tại chỗ và hướng dẫn của nhà sản xuất. Không tìm cách truy cập dữ liệu của tổ chức khác hoặc làm gián đoạn dịch vụ.',
    'agreement.s4t': '4. Dữ liệu chúng tôi xử lý',
    'agreement.s4':
      'Dữ liệu tài khoản (tên, e-mail, điện thoại), nhật ký đăng nhập (thời gian, địa chỉ, thiết bị) và số liệu đo do thiết bị của bạn gửi. Chúng tôi chỉ dùng chúng để cung cấp dịch vụ, bảo đảm an toàn và thực hiện nghĩa vụ pháp lý. Chúng tôi không bán dữ liệu.',
    'agreement.s5t': '5. Chia sẻ và lưu giữ dữ liệu',
    'agreement.s5':
      'Dữ liệu của bạn hiển thị với những người bạn hoặc công ty bạn cấp quyền và với nhân viên vận hành dịch vụ. Số liệu đo thô được lưu trong thời gian giới hạn, tổng sản lượng được lưu khi nhà máy còn dùng dịch vụ. Dữ liệu tài khoản bị xóa khi tài khoản bị đóng, trừ những gì luật yêu cầu lưu giữ.',
    'agreement.s6t': '6. Quyền của bạn',
    'agreement.s6':
      'Bạn có thể xem, sửa và xuất dữ liệu của mình và đóng tài khoản. Hãy liên hệ quản trị viên công ty hoặc nhà vận hành nền tảng.',
    'agreement.s7t': '7. Trách nhiệm và thay đổi',
    'agreement.s7':
      'Dịch vụ được cung cấp theo hiện trạng: số liệu có thể đến chậm hoặc thiếu và không thay thế bảo vệ tại chỗ. Chúng tôi thông báo các thay đổi quan trọng của thỏa thuận trước khi áp dụng; tiếp tục sử dụng dịch vụ nghĩa là bạn chấp nhận chúng.',
    'agreement.english': 'Đọc bằng tiếng Anh',
    'agreement.local': 'Đọc bằng ngôn ngữ của bạn',
  },
  es: {
    'agreement.title': 'Acuerdo de usuario y aviso de privacidad',
    'agreement.intro':
      'Este acuerdo se aplica a todas las personas que usan la consola Sunward y sus aplicaciones. Léalo antes de registrarse; al registrarse lo acepta.',
    'agreement.s1t': '1. El servicio',
    'agreement.s1':
      'Sunward le permite supervisar plantas fotovoltaicas y de almacenamiento de energía y operar sus equipos a distancia. Mejoramos el servicio de forma continua y anunciamos con antelación el mantenimiento previsto cuando es posible.',
    'agreement.s2t': '2. Su cuenta',
    'agreement.s2':
      'No comparta su contraseña y active el inicio de sesión en dos pasos si puede. Usted responde de lo que se haga con su cuenta. Avise de inmediato a su administrador o al operador si sospecha un uso indebido.',
    'agreement.s3t': '3. Uso aceptable',
    'agreement.s3':
      'Opere solo las plantas y equipos para los que tiene autorización. Las órdenes remotas como el apagado, el cambio de parámetros o la actualización de firmware actúan sobre equipos reales: siga las normas de seguridad locales y las instrucciones del fabricante. No intente acceder a datos de otras organizaciones ni perturbar el servicio.',
    'agreement.s4t': '4. Datos que tratamos',
    'agreement.s4':
      'Datos de la cuenta (nombre, correo, teléfono), registros de inicio de sesión (hora, dirección, dispositivo) y las mediciones que envían sus equipos. Solo los usamos para prestar el servicio, mantenerlo seguro y cumplir obligaciones legales. No los vendemos.',
    'agreement.s5t': '5. Compartir y conservar los datos',
    'agreement.s5':
      'Sus datos son visibles para las personas a las que usted o su empresa den acceso y para los operadores que mantienen el servicio. Las mediciones en bruto se guardan un tiempo limitado y los totales de energía mientras la planta use el servicio. Los datos de la cuenta se borran al cerrarla, salvo lo que la ley nos obligue a conservar.',
    'agreement.s6t': '6. Sus derechos',
    'agreement.s6':
      'Puede consultar, corregir y exportar sus datos y cerrar su cuenta. Diríjase al administrador de su empresa o al operador de la plataforma.',
    'agreement.s7t': '7. Responsabilidad y cambios',
    'agreement.s7':
      'El servicio se presta tal cual: las lecturas pueden llegar tarde o incompletas y no sustituyen la protección en la instalación. Le informamos de los cambios importantes de este acuerdo antes de que se apliquen; si sigue usando el servicio, los acepta.',
    'agreement.english': 'Leer en inglés',
    'agreement.local': 'Leer en su idioma',
  },
  de: {
    'agreement.title': 'Nutzungsvereinbarung und Datenschutzhinweise',
    'agreement.intro':
      'Diese Vereinbarung gilt für alle, die die Sunward-Konsole und ihre Apps nutzen. Bitte lesen Sie sie vor der Registrierung; mit der Registrierung akzeptieren Sie sie.',
    'agreement.s1t': '1. Der Dienst',
    'agreement.s1':
      'Mit Sunward überwachen Sie Photovoltaik- und Speicheranlagen und bedienen deren Geräte aus der Ferne. Wir verbessern den Dienst laufend und kündigen geplante Wartungen nach Möglichkeit vorher an.',
    'agreement.s2t': '2. Ihr Konto',
    'agreement.s2':
      'Behalten Sie Ihr Passwort für sich und schalten Sie, wenn möglich, die Zwei-Faktor-Anmeldung ein. Sie sind für alles verantwortlich, was mit Ihrem Konto geschieht. Melden Sie einen Missbrauchsverdacht sofort Ihrem Administrator oder dem Betreiber.',
    'agreement.s3t': '3. Zulässige Nutzung',
    'agreement.s3':
      'Bedienen Sie nur Anlagen und Geräte, für die Sie berechtigt sind. Fernbefehle wie Abschalten, Parameteränderungen oder Firmware-Updates wirken auf echte Geräte: Beachten Sie die örtlichen Sicherheitsvorschriften und die Anweisungen des Herstellers. Versuchen Sie nicht, auf Daten anderer Organisationen zuzugreifen oder den Dienst zu stören.',
    'agreement.s4t': '4. Welche Daten wir verarbeiten',
    'agreement.s4':
      'Kontodaten (Name, E-Mail, Telefon), Anmeldeprotokolle (Zeit, Adresse, Gerät) und die Messwerte Ihrer Geräte. Wir nutzen sie nur, um den Dienst zu erbringen, ihn sicher zu halten und gesetzliche Pflichten zu erfüllen. Wir verkaufen sie nicht.',
    'agreement.s5t': '5. Weitergabe und Aufbewahrung',
    'agreement.s5':
      'Ihre Daten sehen die Personen, denen Sie oder Ihr Unternehmen Zugriff geben, und die Betreiber, die den Dienst warten. Rohmesswerte werden begrenzt aufbewahrt, Energiesummen solange die Anlage den Dienst nutzt. Kontodaten werden mit der Schließung des Kontos gelöscht, außer was wir gesetzlich aufbewahren müssen.',
    'agreement.s6t': '6. Ihre Rechte',
    'agreement.s6':
      'Sie können Ihre Daten einsehen, berichtigen und exportieren sowie Ihr Konto schließen. Wenden Sie sich an Ihren Unternehmensadministrator oder den Plattformbetreiber.',
    'agreement.s7t': '7. Haftung und Änderungen',
    'agreement.s7':
      'Der Dienst wird so bereitgestellt, wie er ist: Messwerte können verspätet oder unvollständig sein und ersetzen keinen Schutz vor Ort. Über wesentliche Änderungen dieser Vereinbarung informieren wir Sie, bevor sie gelten; wer den Dienst danach weiter nutzt, akzeptiert sie.',
    'agreement.english': 'Auf Englisch lesen',
    'agreement.local': 'In Ihrer Sprache lesen',
  },
  cz: {
    'agreement.title': 'Uživatelská smlouva a zásady ochrany soukromí',
    'agreement.intro':
      'Tato smlouva platí pro všechny, kdo používají konzoli Sunward a její aplikace. Přečtěte si ji před registrací; registrací ji přijímáte.',
    'agreement.s1t': '1. Služba',
    'agreement.s1':
      'Sunward vám umožňuje sledovat fotovoltaické a bateriové elektrárny a vzdáleně ovládat jejich zařízení. Službu průběžně zlepšujeme a plánovanou údržbu podle možností předem oznamujeme.',
    'agreement.s2t': '2. Váš účet',
    'agreement.s2':
      'Heslo nikomu nesdělujte a pokud můžete, zapněte dvoufázové přihlášení. Za vše, co se s vaším účtem děje, odpovídáte vy. Při podezření na zneužití ihned informujte správce nebo provozovatele.',
    'agreement.s3t': '3. Přípustné použití',
    'agreement.s3':
      'Ovládejte jen elektrárny a zařízení, ke kterým máte oprávnění. Vzdálené příkazy jako vypnutí, změna parametrů nebo aktualizace firmwaru působí na skutečná zařízení: dodržujte místní bezpečnostní předpisy a pokyny výrobce. Nepokoušejte se získat data jiných organizací ani narušit službu.',
    'agreement.s4t': '4. Jaká data zpracováváme',
    'agreement.s4':
      'Údaje účtu (jméno, e-mail, telefon), záznamy o přihlášení (čas, adresa, zařízení) a měření, která posílají vaše zařízení. Používáme je jen k poskytování služby, jejímu zabezpečení a plnění zákonných povinností. Neprodáváme je.',
    'agreement.s5t': '5. Sdílení a uchovávání',
    'agreement.s5':
      'Vaše data vidí lidé, kterým vy nebo vaše společnost udělíte přístup, a provozovatelé, kteří službu udržují. Surová měření uchováváme omezenou dobu, souhrny energie po dobu, kdy elektrárna službu používá. Údaje účtu se po jeho zrušení mažou, kromě toho, co musíme ze zákona uchovat.',
    'agreement.s6t': '6. Vaše práva',
    'agreement.s6':
      'Svá data můžete zobrazit, opravit a exportovat a účet zrušit. Obraťte se na správce své společnosti nebo provozovatele platformy.',
    'agreement.s7t': '7. Odpovědnost a změny',
    'agreement.s7':
      'Služba se poskytuje tak, jak je: údaje mohou přijít pozdě nebo neúplné a nenahrazují ochranu na místě. O podstatných změnách této smlouvy vás informujeme předem; dalším používáním služby je přijímáte.',
    'agreement.english': 'Číst anglicky',
    'agreement.local': 'Číst ve vašem jazyce',
  },
  po: {
    'agreement.title': 'Umowa użytkownika i informacja o prywatności',
    'agreement.intro':
      'Ta umowa dotyczy wszystkich, którzy korzystają z konsoli Sunward i jej aplikacji. Przeczytaj ją przed rejestracją; rejestrując się, akceptujesz ją.',
    'agreement.s1t': '1. Usługa',
    'agreement.s1':
      'Sunward pozwala monitorować elektrownie fotowoltaiczne i magazyny energii oraz zdalnie sterować ich urządzeniami. Stale ulepszamy usługę i w miarę możliwości z wyprzedzeniem ogłaszamy planowane prace serwisowe.',
    'agreement.s2t': '2. Twoje konto',
    'agreement.s2':
      'Nie udostępniaj nikomu hasła i w miarę możliwości włącz logowanie dwuskładnikowe. Odpowiadasz za wszystko, co dzieje się na Twoim koncie. Jeśli podejrzewasz nadużycie, natychmiast powiadom administratora lub operatora.',
    'agreement.s3t': '3. Dozwolone użycie',
    'agreement.s3':
      'Steruj tylko elektrowniami i urządzeniami, do których masz uprawnienia. Zdalne polecenia, takie jak wyłączenie, zmiana parametrów czy aktualizacja oprogramowania, działają na prawdziwy sprzęt: przestrzegaj lokalnych przepisów bezpieczeństwa i instrukcji producenta. Nie próbuj uzyskać dostępu do danych innych organizacji ani zakłócać usługi.',
    'agreement.s4t': '4. Jakie dane przetwarzamy',
    'agreement.s4':
      'Dane konta (imię, e-mail, telefon), rejestr logowań (czas, adres, urządzenie) oraz pomiary wysyłane przez Twoje urządzenia. Używamy ich wyłącznie do świadczenia usługi, jej zabezpieczenia i wypełniania obowiązków prawnych. Nie sprzedajemy ich.',
    'agreement.s5t': '5. Udostępnianie i przechowywanie',
    'agreement.s5':
      'Twoje dane widzą osoby, którym Ty lub Twoja firma nadacie dostęp, oraz operatorzy utrzymujący usługę. Surowe pomiary przechowujemy przez ograniczony czas, a sumy energii tak długo, jak elektrownia korzysta z usługi. Dane konta usuwamy po jego zamknięciu, z wyjątkiem tego, co musimy przechowywać z mocy prawa.',
    'agreement.s6t': '6. Twoje prawa',
    'agreement.s6':
      'Możesz przeglądać, poprawiać i eksportować swoje dane oraz zamknąć konto. Zwróć się do administratora firmy lub operatora platformy.',
    'agreement.s7t': '7. Odpowiedzialność i zmiany',
    'agreement.s7':
      'Usługa jest świadczona w obecnej postaci: odczyty mogą przychodzić z opóźnieniem lub być niepełne i nie zastępują zabezpieczeń na miejscu. O istotnych zmianach umowy informujemy przed ich wejściem w życie; dalsze korzystanie z usługi oznacza ich akceptację.',
    'agreement.english': 'Czytaj po angielsku',
    'agreement.local': 'Czytaj w swoim języku',
  },
  tr: {
    'agreement.title': 'Kullanıcı sözleşmesi ve gizlilik bildirimi',
    'agreement.intro':
      'Bu sözleşme Sunward konsolunu ve uygulamalarını kullanan herkes için geçerlidir. Kaydolmadan önce okuyun; kaydolarak kabul etmiş olursunuz.',
    'agreement.s1t': '1. Hizmet',
    'agreement.s1':
      'Sunward, fotovoltaik ve enerji depolama santrallerini izlemenizi ve cihazlarını uzaktan yönetmenizi sağlar. Hizmeti sürekli geliştirir, planlı bakımları mümkün olduğunca önceden duyururuz.',
    'agreement.s2t': '2. Hesabınız',
    'agreement.s2':
      'Parolanızı kimseyle paylaşmayın ve mümkünse iki adımlı girişi açın. Hesabınızla yapılan her şeyden siz sorumlusunuz. Kötüye kullanımdan şüphelenirseniz hemen yöneticinize veya işletmeciye bildirin.',
    'agreement.s3t': '3. Kabul edilebilir kullanım',
    'agreement.s3':
      'Yalnızca yetkili olduğunuz santralleri ve cihazları yönetin. Kapatma, parametre değişikliği veya yazılım güncellemesi gibi uzaktan komutlar gerçek ekipman üzerinde çalışır: yerel güvenlik kurallarına ve üreticinin talimatlarına uyun. Başka kuruluşların verilerine erişmeye veya hizmeti aksatmaya çalışmayın.',
    'agreement.s4t': '4. İşlediğimiz veriler',
    'agreement.s4':
      'Hesap verileri (ad, e-posta, telefon), giriş kayıtları (zaman, adres, cihaz) ve cihazlarınızın gönderdiği ölçümler. Bunları yalnızca hizmeti sunmak, güvenliğini sağlamak ve yasal yükümlülükleri yerine getirmek için kullanırız. Satmayız.',
    'agreement.s5t': '5. Paylaşım ve saklama',
    'agreement.s5':
      'Verilerinizi, sizin veya şirketinizin erişim verdiği kişiler ile hizmetin bakımını yapan işletmeciler görür. Ham ölçümler sınırlı bir süre, enerji toplamları santral hizmeti kullandığı sürece saklanır. Hesap verileri hesap kapatıldığında silinir; yasanın saklamamızı gerektirdikleri hariç.',
    'agreement.s6t': '6. Haklarınız',
    'agreement.s6':
      'Verilerinizi görebilir, düzeltebilir, dışa aktarabilir ve hesabınızı kapatabilirsiniz. Şirket yöneticinize veya platform işletmecisine başvurun.',
    'agreement.s7t': '7. Sorumluluk ve değişiklikler',
    'agreement.s7':
      'Hizmet olduğu gibi sunulur: ölçümler gecikebilir veya eksik olabilir ve sahadaki korumanın yerini tutmaz. Bu sözleşmedeki önemli değişiklikleri yürürlüğe girmeden önce bildiririz; hizmeti kullanmaya devam etmeniz onları kabul ettiğiniz anlamına gelir.',
    'agreement.english': 'İngilizce oku',
    'agreement.local': 'Kendi dilinizde okuyun',
  },
  el: {
    'agreement.title': 'Σύμβαση χρήστη και δήλωση απορρήτου',
    'agreement.intro':
      'Αυτή η σύμβαση ισχύει για όλους όσοι χρησιμοποιούν την κονσόλα Sunward και τις εφαρμογές της. Διαβάστε τη πριν από την εγγραφή· με την εγγραφή την αποδέχεστε.',
    'agreement.s1t': '1. Η υπηρεσία',
    'agreement.s1':
      'Το Sunward σάς επιτρέπει να παρακολουθείτε φωτοβολταϊκούς σταθμούς και σταθμούς αποθήκευσης ενέργειας και να χειρίζεστε εξ αποστάσεως τις συσκευές τους. Βελτιώνουμε συνεχώς την υπηρεσία και ανακοινώνουμε εκ των προτέρων, όπου μπορούμε, την προγραμματισμένη συντήρηση.',
    'agreement.s2t': '2. Ο λογαριασμός σας',
    'agreement.s2':
      'Κρατήστε τον κωδικό σας για τον εαυτό σας και ενεργοποιήστε, αν μπορείτε, τη σύνδεση δύο παραγόντων. Είστε υπεύθυνοι για ό,τι γίνεται με τον λογαριασμό σας. Ενημερώστε αμέσως τον διαχειριστή ή τον φορέα λειτουργίας αν υποψιάζεστε κατάχρηση.',
    'agreement.s3t': '3. Αποδεκτή χρήση',
    'agreement.s3':
      'Χειριστείτε μόνο τους σταθμούς και τις συσκευές για τις οποίες έχετε εξουσιοδότηση. Οι απομακρυσμένες εντολές, όπως τερματισμός, αλλαγή παραμέτρων ή αναβάθμιση υλικολογισμικού, επιδρούν σε πραγματικό εξοπλισμό: τηρήστε τους τοπικούς κανόνες ασφαλείας και τις οδηγίες του κατασκευαστή. Μην επιχειρήσετε πρόσβαση σε δεδομένα άλλων οργανισμών ή διατάραξη της υπηρεσίας.',
    'agreement.s4t': '4. Δεδομένα που επεξεργαζόμαστε',
    'agreement.s4':
      'Δεδομένα λογαριασμού (όνομα, e-mail, τηλέφωνο), αρχεία συνδέσεων (ώρα, διεύθυνση, συσκευή) και τις μετρήσεις που στέλνουν οι συσκευές σας. Τα χρησιμοποιούμε μόνο για την παροχή της υπηρεσίας, την ασφάλειά της και τις νόμιμες υποχρεώσεις μας. Δεν τα πουλάμε.',
    'agreement.s5t': '5. Κοινοποίηση και διατήρηση',
    'agreement.s5':
      'Τα δεδομένα σας τα βλέπουν όσοι λαμβάνουν πρόσβαση από εσάς ή την εταιρεία σας και οι υπεύθυνοι λειτουργίας της υπηρεσίας. Οι ακατέργαστες μετρήσεις διατηρούνται για περιορισμένο χρόνο και τα σύνολα ενέργειας όσο ο σταθμός χρησιμοποιεί την υπηρεσία. Τα δεδομένα λογαριασμού διαγράφονται με το κλείσιμό του, εκτός από όσα ο νόμος μάς υποχρεώνει να κρατήσουμε.',
    'agreement.s6t': '6. Τα δικαιώματά σας',
    'agreement.s6':
      'Μπορείτε να δείτε, να διορθώσετε και να εξαγάγετε τα δεδομένα σας και να κλείσετε τον λογαριασμό σας. Απευθυνθείτε στον διαχειριστή της εταιρείας σας ή στον φορέα της πλατφόρμας.',
    'agreement.s7t': '7. Ευθύνη και αλλαγές',
    'agreement.s7':
      'Η υπηρεσία παρέχεται ως έχει: οι μετρήσεις μπορεί να καθυστερούν ή να είναι ελλιπείς και δεν αντικαθιστούν την προστασία στον χώρο. Σας ενημερώνουμε για σημαντικές αλλαγές της σύμβασης πριν ισχύσουν· η συνέχιση της χρήσης σημαίνει ότι τις αποδέχεστε.',
    'agreement.english': 'Ανάγνωση στα αγγλικά',
    'agreement.local': 'Ανάγνωση στη γλώσσα σας',
  },
  pt: {
    'agreement.title': 'Acordo de utilizador e aviso de privacidade',
    'agreement.intro':
      'Este acordo aplica-se a todas as pessoas que usam a consola Sunward e as suas aplicações. Leia-o antes de se registar; ao registar-se, aceita-o.',
    'agreement.s1t': '1. O serviço',
    'agreement.s1':
      'O Sunward permite-lhe monitorizar centrais fotovoltaicas e de armazenamento de energia e operar os seus equipamentos à distância. Melhoramos o serviço continuamente e anunciamos com antecedência a manutenção planeada sempre que possível.',
    'agreement.s2t': '2. A sua conta',
    'agreement.s2':
      'Não partilhe a sua palavra-passe e ative o início de sessão em dois passos se puder. É responsável pelo que for feito com a sua conta. Avise de imediato o seu administrador ou o operador se suspeitar de uso indevido.',
    'agreement.s3t': '3. Utilização aceitável',
    'agreement.s3':
      'Opere apenas as centrais e os equipamentos para os quais tem autorização. Comandos remotos como desligar, alterar parâmetros ou atualizar o firmware atuam sobre equipamentos reais: siga as regras de segurança locais e as instruções do fabricante. Não tente aceder a dados de outras organizações nem perturbar o serviço.',
    'agreement.s4t': '4. Dados que tratamos',
    'agreement.s4':
      'Dados da conta (nome, e-mail, telefone), registos de início de sessão (hora, endereço, dispositivo) e as medições que os seus equipamentos enviam. Usamo-los apenas para prestar o serviço, mantê-lo seguro e cumprir obrigações legais. Não os vendemos.',
    'agreement.s5t': '5. Partilha e conservação',
    'agreement.s5':
      'Os seus dados são visíveis para as pessoas a quem o próprio ou a sua empresa dão acesso e para os operadores que mantêm o serviço. As medições em bruto são guardadas durante um tempo limitado e os totais de energia enquanto a central usar o serviço. Os dados da conta são apagados quando a conta é encerrada, exceto o que a lei nos obriga a conservar.',
    'agreement.s6t': '6. Os seus direitos',
    'agreement.s6':
      'Pode consultar, corrigir e exportar os seus dados e encerrar a sua conta. Contacte o administrador da sua empresa ou o operador da plataforma.',
    'agreement.s7t': '7. Responsabilidade e alterações',
    'agreement.s7':
      'O serviço é prestado tal como está: as leituras podem chegar atrasadas ou incompletas e não substituem a proteção no local. Informamos das alterações importantes a este acordo antes de se aplicarem; continuar a usar o serviço significa aceitá-las.',
    'agreement.english': 'Ler em inglês',
    'agreement.local': 'Ler no seu idioma',
  },
});
