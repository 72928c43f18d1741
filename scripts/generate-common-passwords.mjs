// Writes packages/contracts/src/common-passwords.gen.ts: the common passwords a new password may not be.
//
// No public breach corpus could be downloaded where this was written, so the list is built from a
// hand-curated seed of passwords that top every published "most common" list (SplashData, NordPass,
// NCSC's Have-I-Been-Pwned top 100k), then widened with the variants people actually make of them:
// a capital first letter (matched case-insensitively anyway), digits, years and "!" appended, and
// letter-to-digit swaps. The seed comes first, so the file is roughly ordered by likelihood.
// Run: node scripts/generate-common-passwords.mjs (from the repository root).
import { writeFileSync } from 'node:fs';

const LIMIT = 10_000;

const seed = `
123456 password 12345678 qwerty 123456789 12345 1234 111111 1234567 dragon 123123 baseball abc123 football
monkey letmein 696969 shadow master 666666 qwertyuiop 123321 mustang 1234567890 michael 654321 superman
1qaz2wsx 7777777 121212 000000 qazwsx 123qwe killer trustno1 jordan jennifer zxcvbnm asdfgh hunter buster
soccer harley batman andrew tigger sunshine iloveyou 2000 charlie robert thomas hockey ranger daniel
starwars klaster 112233 george computer michelle jessica pepper 1111 zxcvbn 555555 11111111 131313
freedom 777777 pass maggie 159753 aaaaaa ginger princess joshua cheese amanda summer love ashley nicole
chelsea biteme matthew access yankees 987654321 dallas austin thunder taylor matrix mobilemail mom
monitor monitoring montana moon moscow password1 password123 qwerty123 iloveyou1 admin admin123 welcome
welcome1 login abc123456 passw0rd p@ssw0rd p@ssword 1q2w3e4r 1q2w3e4r5t 1q2w3e 123abc qwe123 zaq12wsx
qazwsxedc 1qazxsw2 asdf1234 asdfghjkl 1234qwer qwer1234 q1w2e3r4 q1w2e3r4t5 a1b2c3d4 aa123456 123456a
a123456 123456789a abcd1234 12qwaszx 88888888 87654321 99999999 00000000 11223344 123654 147258369
147258 159357 123qweasd 1qaz2wsx3edc qweasdzxc zxcv1234 asd123 qwerty1 qwerty12 qwertyu 1qaz 2wsx
secret secret1 changeme changeme1 default guest root toor test test123 testing tester demo user
password12 password1234 passw0rd1 pass123 pass1234 mypassword mypass letmein1 hello hello123 hello1
hellokitty whatever whatever1 nothing trustme iloveu loveme lovely lover fuckyou fuckyou1 asshole
bailey shadow1 superman1 batman1 spiderman dragon1 monkey1 football1 baseball1 soccer1 princess1
sunshine1 master1 michael1 jordan23 jordan1 charlie1 killer1 pokemon naruto minecraft fortnite
roblox google facebook youtube instagram twitter linkedin microsoft apple samsung iphone android
internet computer1 windows linux ubuntu oracle mysql postgres server network wifi router modem
qwerty1234 1234567a 12345a 12345qwert 123456q q123456 qq123456 woaini woaini1314 5201314 520520
1314520 a5201314 iloveyou2 iloveyou! 1qa2ws3ed zxc123 zxc123456 asdasd asdasd123 qweqwe qweqwe123
aaaaaaaa abcdef abcdefg abcdefgh abc12345 a12345 a1234567 a12345678 abc123abc 123abc123 1a2b3c4d
letmein123 welcome123 admin1234 administrator adminadmin root123 toor123 system sysadmin support
service office company business manager solar energy power sunward solarpanel inverter battery
sunpower photovoltaic greenenergy
summer2024 winter2024 spring2024 autumn2024 summer2023 winter2023 spring2023 autumn2023
january february march april may june july august september october november december
monday tuesday wednesday thursday friday saturday sunday
angel angels angel1 baby babygirl babyboy beautiful blessed butterfly chocolate cookie cupcake daisy
diamond dolphin flower forever friends friendship garfield goodluck happy happy123 heart honey jasmine
jesus jesus1 jesuschrist kitten kitty lovers loveyou lucky lucky7 magic mickey minnie money money123
mylove peanut purple rainbow rose samantha secret123 shorty smile snoopy sparkle star stars sweet
sweetheart sweetie sweety teddy tiger tinkerbell unicorn yellow blue green orange red black white
silver golden gold pink violet
`;

// People's names, sports, places, things and keyboard walks that lists show with digits after them.
const words = `
password qwerty iloveyou admin welcome dragon monkey letmein football baseball master shadow sunshine
princess superman batman michael jordan jennifer jessica charlie daniel thomas robert andrew joshua
matthew william james john david richard joseph christopher anthony mark steven paul kevin brian george
edward ronald timothy jason jeffrey ryan jacob gary nicholas eric stephen jonathan larry justin scott
brandon benjamin samuel frank gregory raymond alexander patrick jack dennis jerry tyler aaron henry
peter adam nathan zachary kyle walter harold carl arthur gerald roger keith lawrence terry sean
christian austin albert joe ethan willie billy bruce bryan jordan ralph roy noah dylan eugene wayne
alan juan louis russell gabriel randy philip harry vincent bobby johnny logan mary patricia linda
barbara elizabeth susan margaret dorothy lisa nancy karen betty helen sandra donna carol ruth sharon
michelle laura sarah kimberly deborah amy angela melissa brenda emma olivia sophia isabella mia
charlotte amelia harper evelyn abigail emily ella madison scarlett victoria grace chloe camila
penelope riley layla lillian nora zoey mila aubrey hannah lily addison eleanor natalie luna savannah
brooklyn leah zoe stella hazel ellie paisley audrey skylar violet claire bella aurora lucy anna
samantha caroline genesis aaliyah kennedy kinsley allison maya sarah madelyn adeline alexa ariana
elena gabriella naomi alice sadie hailey eva emilia autumn quinn nevaeh piper ruby serenity willow
maria anna sofia lukas jonas felix max paul leon finn elias ben luis noah louis julia lea lena marie
chelsea arsenal liverpool manchester united barcelona madrid realmadrid juventus milan inter bayern
dortmund ajax porto benfica celtic rangers everton tottenham spurs newcastle leeds lakers celtics
bulls yankees redsox cowboys steelers packers eagles patriots raiders giants dodgers warriors
soccer hockey tennis golf cricket rugby basketball volleyball boxing racing ninja samurai warrior
hunter killer sniper soldier pirate cowboy rocket rockstar star superstar legend hero zeus thor odin
phoenix falcon eagle hawk raven wolf tiger lion panther jaguar leopard cheetah bear shark dolphin
whale horse pony dragon snake cobra viper scorpion spider monkey donkey turtle rabbit bunny kitty
puppy doggy doggie buddy bailey max rocky lucky molly maggie daisy sadie coco bella lola oscar
toby jack jake duke bear teddy gizmo buster pepper ginger oreo simba nala milo leo loki zeus
london paris berlin madrid rome tokyo china beijing shanghai hongkong taiwan india mumbai delhi
america canada mexico brazil russia moscow poland warsaw prague vienna athens istanbul ankara lisbon
porto hanoi saigon vietnam germany france spain italy greece turkey portugal england scotland
ireland dublin sydney melbourne texas florida california chicago boston dallas houston miami
computer internet google yahoo hotmail gmail outlook facebook apple orange banana cherry mango lemon
peach grape melon strawberry coffee pizza pasta burger cheese butter sugar candy cookie chocolate
music guitar piano drums rock metal punk jazz blues disco dance party summer winter spring autumn
sunday friday holiday weekend freedom liberty justice peace love life family friend friends
heaven angel devil demon ghost zombie vampire magic wizard merlin gandalf frodo hobbit matrix
starwars startrek pokemon pikachu naruto goku vegeta sasuke mario luigi zelda sonic tetris
minecraft fortnite roblox halo doom quake diablo warcraft skyrim batman joker superman spiderman
ironman hulk captain marvel avengers hello secret hidden private access login master super
trustno1 whatever nothing qazwsx asdfgh zxcvbn qwertyuiop asdfghjkl zxcvbnm abcdef abc
`;

const suffixes = [
  '',
  '1',
  '123',
  '12',
  '1234',
  '!',
  '12345',
  '123456',
  '2',
  '11',
  '01',
  '69',
  '7',
  '13',
  '22',
  '21',
  '99',
  '88',
  '10',
  '23',
  '007',
  '77',
  '00',
  '3',
  '5',
  '8',
  '9',
  '4',
  '6',
  '1!',
  '123!',
  '@123',
  '#1',
  '2024',
  '2023',
  '2022',
  '2021',
  '2020',
  '2019',
  '2018',
  '2017',
  '2016',
  '2015',
  '2010',
  '2000',
  '1990',
  '1991',
  '1992',
  '1993',
  '1994',
  '1995',
  '1996',
  '1997',
  '1998',
  '1999',
  '1985',
  '1980',
];

const leet = (w) => w.replace(/a/g, '@').replace(/o/g, '0').replace(/e/g, '3').replace(/i/g, '1').replace(/s/g, '$');

const out = new Set();
const add = (p) => {
  const v = p.toLowerCase();
  if (v.length >= 4 && out.size < LIMIT) out.add(v);
};
for (const p of seed.split(/\s+/)) if (p) add(p);
const baseWords = [...new Set(words.split(/\s+/).filter(Boolean))];
// Breadth first by suffix: every word with "1" before any word with "1990", as the lists rank them.
for (const suffix of suffixes) {
  for (const w of baseWords) add(w + suffix);
  if (suffix.length <= 3) for (const w of baseWords.slice(0, 60)) add(leet(w) + suffix);
}
// Digit runs and repeated characters fill what is left.
for (let n = 4; n <= 12 && out.size < LIMIT; n++) for (let d = 0; d <= 9; d++) add(String(d).repeat(n));
for (let y = 1950; y <= 2030 && out.size < LIMIT; y++) for (const p of ['', 'password', 'love', 'summer', 'winter']) add(`${p}${y}`);

const list = [...out];
const header = `// GENERATED by scripts/generate-common-passwords.mjs: do not edit by hand.
// ${list.length} common passwords, lower-case, one per line, most likely first (see the script for how).
`;
const body = `${header}export const COMMON_PASSWORDS_TEXT = ${JSON.stringify(list.join('\n'))};\n`;
writeFileSync(new URL('../packages/contracts/src/common-passwords.gen.ts', import.meta.url), body);
console.log(`wrote ${list.length} passwords`);
